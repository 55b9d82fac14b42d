#include <stdio.h>
int main(void) { puts("proftool"); return 0; }
