/* cli.c — the `tritium` executable: everything is in libtritium. */
#include "tritium/tritium.h"

int main(int argc, char **argv) { return tritium_main(argc, argv); }
