#include <X11/Xlib.h>
#include <X11/Xatom.h>

/* The server's resource-ID mask of the connection (Xlibint.h's resource_mask, private4 in Xlib.h's public
   view of the display): the bits of an ID past it name the client that made it. */
static inline XID CX11_resourceMask(Display *display) { return ((_XPrivDisplay)display)->private4; }
