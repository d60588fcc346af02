package core

import "testing"

// TestManifestMainSection reads a manifest as the JAR spec writes it:
// CRLF or LF lines, 72-byte lines continued with a leading space, names
// in any case, and only the main section.
func TestManifestMainSection(t *testing.T) {
	m := manifestMain([]byte("Manifest-Version: 1.0\r\nmain-class: com.acme.averyveryveryveryveryveryveryveryveryverylongpackag\r\n e.Dedup\r\n\r\nName: x/\r\nprogram-class: not.Main\r\n"))
	if got := m["main-class"]; got != "com.acme.averyveryveryveryveryveryveryveryveryverylongpackage.Dedup" {
		t.Errorf("Main-Class %q", got)
	}
	if _, ok := m["program-class"]; ok {
		t.Error("an attribute of a per-entry section read as the main section's")
	}
}
