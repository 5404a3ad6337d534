#ifndef COURIER_CYAML_H
#define COURIER_CYAML_H
#include <yaml.h>
#endif
