package store

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/palink/palink/internal/etcdtest"
)

// TestEtcdAuth: palink logs in as an etcd user whose role may use its
// prefix; a wrong password and a role without the prefix are refused,
// named; the password is in no error.
func TestEtcdAuth(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	url := freshURL(c)
	u, _ := ParseEtcdURL(url)
	cli := rawClient(t, c)
	ctx := context.Background()
	steps := []func() error{
		func() error { _, err := cli.RoleAdd(ctx, "root"); return err },
		func() error { _, err := cli.UserAdd(ctx, "root", "root-pw"); return err },
		func() error { _, err := cli.UserGrantRole(ctx, "root", "root"); return err },
		func() error { _, err := cli.RoleAdd(ctx, "palink"); return err },
		func() error {
			_, err := cli.RoleGrantPermission(ctx, "palink", u.Prefix, clientv3.GetPrefixRangeEnd(u.Prefix), clientv3.PermissionType(clientv3.PermReadWrite))
			return err
		},
		func() error { _, err := cli.UserAdd(ctx, "palink", "s3cret-pw"); return err },
		func() error { _, err := cli.UserGrantRole(ctx, "palink", "palink"); return err },
		func() error { _, err := cli.RoleAdd(ctx, "elsewhere"); return err },
		func() error {
			_, err := cli.RoleGrantPermission(ctx, "elsewhere", "/other/", "/other0", clientv3.PermissionType(clientv3.PermReadWrite))
			return err
		},
		func() error { _, err := cli.UserAdd(ctx, "stranger", "s3cret-pw"); return err },
		func() error { _, err := cli.UserGrantRole(ctx, "stranger", "elsewhere"); return err },
		func() error { _, err := cli.AuthEnable(ctx); return err },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	password := func(pw string) func() (string, error) { return func() (string, error) { return pw, nil } }

	s := openEtcdT(t, url, Options{Etcd: EtcdOptions{Username: "palink", Password: password("s3cret-pw")}})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	view(t, s, func(tx ReadTx) error { _, err := tx.Job("j1"); return err })

	_, err := OpenEtcd(url, Options{Etcd: EtcdOptions{Username: "palink", Password: password("wrong-pw"), DialTimeout: 2 * time.Second}})
	if err == nil || !strings.Contains(err.Error(), `etcd refused user "palink"`) || strings.Contains(err.Error(), "wrong-pw") {
		t.Errorf("a wrong password: %v", err)
	}
	_, err = OpenEtcd(url, Options{Etcd: EtcdOptions{Username: "stranger", Password: password("s3cret-pw"), DialTimeout: 2 * time.Second}})
	if err == nil || !strings.Contains(err.Error(), `etcd user "stranger" may not use the keys under `+u.Prefix) || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a user without the prefix: %v", err)
	}
	_, err = OpenEtcd(url, Options{Etcd: EtcdOptions{Username: "palink", Password: func() (string, error) {
		return "", errors.New("environment variable PALINK_ETCD_PW is empty")
	}}})
	if err == nil || !strings.Contains(err.Error(), "password of etcd user palink: environment variable PALINK_ETCD_PW is empty") {
		t.Errorf("a password that cannot be read: %v", err)
	}
}

// TestEtcdTLS: members that serve TLS and ask for client certificates
// take palink's, signed by their CA; without a client certificate, or
// without the CA to trust them by, palink cannot reach them and says so.
func TestEtcdTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newCA(t, dir)
	serverCert, serverKey := ca.issue(t, dir, "server", x509.ExtKeyUsageServerAuth)
	clientCert, clientKey := ca.issue(t, dir, "client", x509.ExtKeyUsageClientAuth)
	c := etcdtest.Start(t, 1, etcdtest.Options{TLS: &etcdtest.TLS{CertFile: serverCert, KeyFile: serverKey,
		ClientCA: ca.file, ClientCert: clientCert, ClientKey: clientKey}})
	url := freshURL(c)

	s := openEtcdT(t, url, Options{Etcd: EtcdOptions{CAFile: ca.file, CertFile: clientCert, KeyFile: clientKey}})
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })

	for name, o := range map[string]EtcdOptions{
		"no client certificate": {CAFile: ca.file},
		"no CA":                 {CertFile: clientCert, KeyFile: clientKey},
		"no TLS":                {},
	} {
		o.DialTimeout = time.Second
		_, err := OpenEtcd(url, Options{Etcd: o})
		if err == nil || !strings.Contains(err.Error(), "no etcd endpoint answered within 1s ("+c.Endpoints()[0]+")") {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := OpenEtcd(url, Options{Etcd: EtcdOptions{CAFile: ca.file, CertFile: clientCert}})
	if err == nil || !strings.Contains(err.Error(), "give both cert_file and key_file") {
		t.Errorf("a certificate without its key: %v", err)
	}
}

// testCA is a certificate authority of a test, with its certificate in file.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	file string
}

func newCA(t *testing.T, dir string) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "palink test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	file := filepath.Join(dir, "ca.pem")
	writePEM(t, file, "CERTIFICATE", der)
	return testCA{cert: cert, key: key, file: file}
}

// issue signs a certificate for 127.0.0.1 and returns its files.
func (ca testCA) issue(t *testing.T, dir, name string, usage x509.ExtKeyUsage) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	writePEM(t, certFile, "CERTIFICATE", der)
	writePEM(t, keyFile, "EC PRIVATE KEY", kder)
	return certFile, keyFile
}

func writePEM(t *testing.T, file, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}
