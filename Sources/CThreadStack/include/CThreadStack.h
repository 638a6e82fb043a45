#ifndef RULEKIT_CTHREADSTACK_H
#define RULEKIT_CTHREADSTACK_H

#include <stddef.h>
#include <stdint.h>

/// The lowest address of the calling thread's stack. Returns 0 on success, -1 when the platform cannot
/// tell (Swift cannot call glibc's pthread_getattr_np, which needs _GNU_SOURCE).
int rulekit_current_thread_stack_low(uintptr_t *low);

/// The address of the caller's stack frame. Unlike the address of a Swift local, it is on the thread's
/// stack even under AddressSanitizer, which may move locals to a "fake stack" on the heap.
uintptr_t rulekit_current_stack_address(void);

#endif
