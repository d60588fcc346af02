package model

import "testing"

func TestFailingRecord(t *testing.T) {
	for _, tc := range []struct{ trace, want string }{
		{"java.lang.Exception: Could not complete the stream element: Record @ (undef) : +I(1042,42.50,2024-11-28T09:01:02).\n\tat x.y(Z.java:1)\nCaused by: java.util.concurrent.TimeoutException: Async function call has timed out.",
			"+I(1042,42.50,2024-11-28T09:01:02)"},
		{"java.lang.Exception: Could not complete the stream element: Record @ 1700000000000 : Order{id=7}.", "Order{id=7}"},
		{"org.apache.flink.table.api.TableException: Failed to process row -U(7,abc)\nCaused by: java.lang.NumberFormatException: For input string: \"abc\"", "-U(7,abc)"},
		{"java.io.IOException: Connection reset by peer\n\tat a.b(C.java:2)", ""},
		{"java.lang.RuntimeException: state is +Inf(x) at 3", ""},
	} {
		if got := FailingRecord(tc.trace); got != tc.want {
			t.Errorf("FailingRecord(%.50q…) = %q, want %q", tc.trace, got, tc.want)
		}
	}
}

func TestCrashLoopSentence(t *testing.T) {
	c := CrashLoop{Count: 3, Cause: `java.lang.NumberFormatException: For input string: "4x2"`, Record: "+I(1042,4x2,2024-11-28)",
		RestorePoint: "hdfs:///flink/ck/3f9c/chk-51"}
	want := "3 restarts from chk-51 failed with the same NumberFormatException on +I(1042,…) — restoring chk-51 again will replay it"
	if got := c.Sentence(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	c.Record = ""
	want = "3 restarts from chk-51 failed with the same NumberFormatException — restoring chk-51 again will replay it"
	if got := c.Sentence(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
