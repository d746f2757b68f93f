// SwiftPM needs a source file in a C target; the declaration in include/ is all this target is for.
#include "CLibFuzzer.h"
