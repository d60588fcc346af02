package diagnose

// What the tests of package diagnose_test look at.

// FlameRetry is like the message that asks again for a flame graph Flink
// is still sampling, for Harness.Fire.
var FlameRetry = flameRetryMsg{}
