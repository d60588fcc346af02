package krbtest

import (
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A port taken by another process between picking and krb5kdc's bind must
// not pass for the KDC: that process answers the port but never replies.
func TestStartRefusesAPortAnotherProcessTook(t *testing.T) {
	Require(t)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r, err := startOn(t.TempDir(), Options{Realm: "PALINK.TEST", MaxLife: time.Hour}, port)
	if err == nil {
		r.Stop()
		t.Fatal("start called a KDC that could not bind its port ready")
	}
	if !strings.Contains(err.Error(), "Address already in use") {
		t.Errorf("err = %v, want it to say the address is in use", err)
	}
}
