// Package command runs the commands of taskctl: a template's
// <file_paths source="command"> and `taskctl exec`, in the restricted
// interpreter (shellexec) over the project's confined root, and turns what
// they print into candidate paths and warnings (#29 point 4: command
// running moved out of contextgen, which assembles documents).
//
// Run maps a run's outcome to warnings: a file the content or name policy
// keeps from commands is one warning naming the rule, never the content;
// standard error is counted, not quoted, once a command read a file's
// content. ResolveOutput resolves each line of output as a path of the
// project; a line that is not one may be text the command read: it is
// counted, never quoted.
package command
