// OpenBLAS's CBLAS (Debian libopenblas-dev; pkg-config `openblas`) and its thread-count control.
#include <cblas.h>
