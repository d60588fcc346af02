package yarn

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"math/big"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeServerCA writes the httptest server's certificate as a CA file.
func writeServerCA(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "ca.pem")
	cert := srv.TLS.Certificates[0].Certificate[0]
	if err := os.WriteFile(f, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert}), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// tlsServer is an HTTPS server with httptest's certificate (for 127.0.0.1
// and example.com), its TLS tuned by configure.
func tlsServer(t *testing.T, configure func(*tls.Config)) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(jsonHandler(200, `{"status":"RUNNING"}`))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // failed handshakes are the point
	if configure != nil {
		srv.TLS = &tls.Config{}
		configure(srv.TLS)
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// TestTLSBadCertificateNamesTheHost: a certificate palink does not trust,
// or one for another name, fails with ErrTLS, the host, and what to set.
func TestTLSBadCertificateNamesTheHost(t *testing.T) {
	srv := tlsServer(t, nil)
	host := strings.TrimPrefix(srv.URL, "https://")
	o := fastOpts()
	o.Retries = -1

	_, err := newFlink(t, srv.URL, "", o).JobStatus(context.Background(), jobID)
	if !errors.Is(err, ErrTLS) {
		t.Fatalf("untrusted CA: err = %v, want ErrTLS", err)
	}
	if want := "the certificate of " + host + " is not signed by a CA palink trusts: set tls.ca_file"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}

	// The test certificate names 127.0.0.1 and example.com, not localhost.
	o.CAFile = writeServerCA(t, srv)
	u, _ := url.Parse(srv.URL)
	byName := "https://localhost:" + u.Port()
	_, err = newFlink(t, byName, "", o).JobStatus(context.Background(), jobID)
	if !errors.Is(err, ErrTLS) || !strings.Contains(err.Error(), "the certificate of localhost:"+u.Port()+" is for another name") {
		t.Fatalf("wrong name: err = %v", err)
	}
	if _, err := newFlink(t, srv.URL, "", o).JobStatus(context.Background(), jobID); err != nil {
		t.Fatalf("with the CA file and the right name: %v", err)
	}
}

// TestTLSClientCertificate: a server that requires a client certificate
// (Flink's security.ssl.rest.authentication-enabled) refuses palink
// without one, with a message that says to set it, and accepts it with.
func TestTLSClientCertificate(t *testing.T) {
	dir := t.TempDir()
	caCert, caKey := newCA(t)
	certFile, keyFile := issueClientCert(t, dir, caCert, caKey)
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	srv := tlsServer(t, func(c *tls.Config) {
		c.ClientAuth = tls.RequireAndVerifyClientCert
		c.ClientCAs = pool
	})
	o := fastOpts()
	o.Retries = -1
	o.CAFile = writeServerCA(t, srv)
	host := strings.TrimPrefix(srv.URL, "https://")

	_, err := newFlink(t, srv.URL, "", o).JobStatus(context.Background(), jobID)
	if !errors.Is(err, ErrTLS) || !strings.Contains(err.Error(), host+" wants a client certificate") {
		t.Fatalf("without a client certificate: err = %v", err)
	}
	o.CertFile, o.KeyFile = certFile, keyFile
	if s, err := newFlink(t, srv.URL, "", o).JobStatus(context.Background(), jobID); err != nil || s != "RUNNING" {
		t.Fatalf("with the client certificate: %q %v", s, err)
	}
	o.KeyFile = filepath.Join(dir, "missing.key")
	if _, err := NewFlink(srv.URL, "", o); err == nil || !strings.Contains(err.Error(), "read client certificate") {
		t.Errorf("a missing key: %v", err)
	}
}

func newCA(t *testing.T) (*x509.Certificate, *ecdsa.PrivateKey) {
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
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

func issueClientCert(t *testing.T, dir string, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "palink"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "client.pem"), filepath.Join(dir, "client.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
