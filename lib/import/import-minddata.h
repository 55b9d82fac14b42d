/*
 * The MindData importer (ascend.md §2.11): host-side dataset pipeline files.
 *
 *   pipeline_profiling_<d>.json         import-minddata-pipeline.c
 *   device_queue_profiling_<d>.txt      import-minddata-queue.c
 *   dataset_iterator_profiling_<d>.txt  import-minddata-queue.c
 *   minddata_cpu_utilization_<d>.json   import-minddata-cpu.c
 *
 * import-minddata.c finds the files under every PATH (and --minddata DIR),
 * decides the model device of each by the attachment rule of ascend.md §1.4
 * and calls the readers. How the files map onto the model: model.h.
 */
#ifndef PT_IMPORT_MINDDATA_H
#define PT_IMPORT_MINDDATA_H
#include <stdint.h>

struct pt_model;
struct pt_diag;
struct pt_err;

enum pt_md_kind { PT_MDK_PIPELINE, PT_MDK_DEVICE_QUEUE, PT_MDK_ITERATOR, PT_MDK_CPU, PT_MDK__N };

/* Stream ids of the MindData tracks (model.h). */
#define PT_MD_STREAM_HOST_DEVQ (-2)
#define PT_MD_STREAM_HOST_ITER (-3)

/* Kind of a file by its base name, with the number before the extension; -1 if none. */
int pt_md_kind_of(const char *base, uint32_t *number);

/* Readers: 0 ok, -1 fatal (pt_err pushed, naming the file). dev = model device index. */
int pt_md_read_pipeline(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag,
			struct pt_err **e);
int pt_md_read_queue(struct pt_model *m, uint32_t dev, const char *path, int iterator, struct pt_diag *diag,
		     struct pt_err **e);
int pt_md_read_cpu(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag, struct pt_err **e);

#endif
