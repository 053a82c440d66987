//go:build static_build

package schema

// scripts/build links taskctl statically (lestrrat-go/libxml2's
// static_build tag). libxml2 2.9 calls the pthread functions below through
// weak references and, when they are missing, runs as if the process had
// one thread: no locks, and globals shared by every thread, so concurrent
// validations corrupt its heap. A static link pulls a function out of the C
// library only if something references it strongly, and nothing else does
// for all of these: this table does. TestConcurrentValidation, run by CI
// with the tag, fails without it.

/*
#include <pthread.h>

void *tc_libxml2_pthread[] = {
	(void *)pthread_once,
	(void *)pthread_getspecific,
	(void *)pthread_setspecific,
	(void *)pthread_key_create,
	(void *)pthread_key_delete,
	(void *)pthread_mutex_init,
	(void *)pthread_mutex_destroy,
	(void *)pthread_mutex_lock,
	(void *)pthread_mutex_unlock,
	(void *)pthread_cond_init,
	(void *)pthread_cond_destroy,
	(void *)pthread_cond_wait,
	(void *)pthread_cond_signal,
	(void *)pthread_equal,
	(void *)pthread_self,
};
*/
import "C"
