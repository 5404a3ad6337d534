#ifndef COURIER_CCURL_H
#define COURIER_CCURL_H
#include <curl/curl.h>
#endif
