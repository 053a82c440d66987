// Package pages prepares fresh memory for the way taskctl uses it: hash
// tables read before they write, and buffers that read(2) fills.
//
// On Linux a fresh anonymous page that is first read is mapped to the
// kernel's shared zero page; the first write to it then faults a second
// time and, while another thread of the process is running, flushes the
// old mapping from the other CPU's TLB with an inter-processor interrupt
// (a VM exit on a virtual machine). Populate maps such memory writable up
// front, in one system call.
//
// A buffer that a read fills takes one fault per page as the kernel copies
// into it, and every later pass over it a TLB miss per page. Bytes asks for
// huge pages; Populate maps what is about to be filled in one call.
package pages
