// Package pages prepares fresh memory for the way taskctl's hash tables
// use it: read before written.
//
// On Linux a fresh anonymous page that is first read is mapped to the
// kernel's shared zero page; the first write to it then faults a second
// time and, while another thread of the process is running, flushes the
// old mapping from the other CPU's TLB with an inter-processor interrupt
// (a VM exit on a virtual machine). Populate maps such memory writable up
// front, in one system call.
package pages
