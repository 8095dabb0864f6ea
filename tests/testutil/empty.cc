// Keeps plugrt_testutil non-empty while it has no helpers of its own.
