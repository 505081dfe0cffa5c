#ifndef CPNGSHIM_H
#define CPNGSHIM_H
/* The setjmp/longjmp boundary for libpng: Swift cannot call setjmp, so every libjpeg/libpng
   call that may longjmp on error runs inside a function of this target. */
int webimage_cpng_shim_version(void);
#endif
