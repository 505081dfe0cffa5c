#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H
/* The setjmp/longjmp boundary for libjpeg: Swift cannot call setjmp, so every libjpeg/libpng
   call that may longjmp on error runs inside a function of this target. */
int webimage_cjpeg_shim_version(void);
#endif
