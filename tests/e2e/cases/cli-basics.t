# The command line itself: version, help, usage errors and exit codes.
run proftool --version
run proftool --list-cmds
run proftool
run proftool frobnicate
run proftool export --table nope x
run proftool export x
run proftool info --format xml x
run proftool import
run proftool info /nonexistent/dir
