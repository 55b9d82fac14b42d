/* proftool-gen's CUPTIDMP back end (cupti.md §8.2; language in tests/gen/README.md). */
#ifndef PT_GEN_CUPTI_H
#define PT_GEN_CUPTI_H

/* proftool-gen cupti DESC.cdtxt -o OUT.cdump [--scale SIZE]; argv[0] is "cupti". */
int gen_cupti_main(int argc, char **argv);

#endif
