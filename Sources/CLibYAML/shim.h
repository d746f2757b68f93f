// The system libyaml (libyaml-dev, Homebrew's libyaml), found through pkg-config's yaml-0.1.
#include <yaml.h>
