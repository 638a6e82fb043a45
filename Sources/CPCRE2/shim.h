// PCRE2 needs its code-unit width chosen before the header is included; RuleKit uses the 8-bit (UTF-8) library.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
