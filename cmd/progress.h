/* Progress lines on a terminal's standard error for work that takes over a second. */
#ifndef PT_CMD_PROGRESS_H
#define PT_CMD_PROGRESS_H

/* Install the progress hook when standard error is a terminal. */
void pt_cmd_progress_install(void);

#endif
