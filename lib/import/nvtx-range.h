/*
 * What an NVTX range is in the model (cupti.md §6.6), for every importer that reads NVTX
 * ranges (CUPTI dumps, Nsight Systems exports): a range of a typed domain ("Forward",
 * "Operator", ...) takes the domain's name as its type; a default-domain range named
 * "ProfilerStep#N" is a step; one of PyTorch's emit_nvtx texts ("<op>, seq = ...") is an
 * Operator labelled with its op name; anything else is a UserRange.
 */
#ifndef PT_IMPORT_NVTX_RANGE_H
#define PT_IMPORT_NVTX_RANGE_H
#include <stdbool.h>
#include <stddef.h>

/* Is dom one of the typed domains? */
bool pt_nvtx_typed_domain(const char *dom);
/* The range's type; *op_len (set to 0 otherwise) is the length of the op name its label takes
 * when the type is "Operator" from PyTorch's text. dom is NULL for the default domain. */
const char *pt_nvtx_range_type(const char *name, const char *dom, size_t *op_len);

#endif
