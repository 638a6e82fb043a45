// zlib (Debian zlib1g-dev, macOS SDK): inflate and deflate for PNG images and zip archives.
#include <zlib.h>
