package metrics

// What the tests of package metrics_test look at.

// ValuesTick is like the message that reads the values on screen again,
// for Harness.Fire.
var ValuesTick = valuesTickMsg{}
