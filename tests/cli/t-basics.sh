# t-basics.sh: top-level usage and exit codes.
run --help; expect_rc 0; expect_out_contains "Commands:"
run; expect_rc 2
run no-such-command; expect_rc 2; expect_err_contains "unknown command 'no-such-command'"
run --version; expect_rc 0; expect_out_contains "sharesim"
