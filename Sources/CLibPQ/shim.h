// Types and constants of libpq's client API. The functions are looked up at run time
// (Sources/TallyPostgres/Connection/LibPQ.swift), so nothing here is linked.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#elif __has_include("/opt/homebrew/opt/libpq/include/libpq-fe.h")
#include "/opt/homebrew/opt/libpq/include/libpq-fe.h"
#elif __has_include("/usr/local/opt/libpq/include/libpq-fe.h")
#include "/usr/local/opt/libpq/include/libpq-fe.h"
#else
#error "libpq's header libpq-fe.h was not found: install libpq-dev (Debian, Ubuntu) or libpq (Homebrew)"
#endif
