// Stack bounds of the calling thread, so the parser can tell whether deep input fits on the caller's
// stack before moving it to a thread of its own (PredicateSyntax/LargeStack.swift).
#define _GNU_SOURCE
#include "CThreadStack.h"

#include <pthread.h>

int rulekit_current_thread_stack_low(uintptr_t *low) {
#if defined(__APPLE__)
  pthread_t thread = pthread_self();
  uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(thread);
  size_t size = pthread_get_stacksize_np(thread);
  if (size == 0 || top < size) return -1;
  *low = top - size;
  return 0;
#elif defined(__linux__)
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
  void *address = NULL;
  size_t size = 0;
  int status = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  if (status != 0 || address == NULL) return -1;
  *low = (uintptr_t)address;
  return 0;
#else
  (void)low;
  return -1;
#endif
}

__attribute__((noinline)) uintptr_t rulekit_current_stack_address(void) {
  return (uintptr_t)__builtin_frame_address(0);
}
