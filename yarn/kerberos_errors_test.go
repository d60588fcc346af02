package yarn

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestKerberosHTTPErrors: how a refusal reads depends on whether the
// request carried a ticket and on what the filter said (Hadoop's
// AuthenticationFilter writes the GSS failure into a Jetty error page).
func TestKerberosHTTPErrors(t *testing.T) {
	page := func(reason string) []byte {
		return []byte("<html>\n<head>\n<title>Error 403 " + reason + "</title>\n</head>\n<body><h2>HTTP ERROR 403</h2></body></html>")
	}
	acl := []byte(`{"RemoteException":{"exception":"ForbiddenException","message":"java.lang.Exception: User viewer cannot perform operation MODIFY_APP on application_1_0001","javaClassName":"org.apache.hadoop.yarn.webapp.ForbiddenException"}}`)
	cases := []struct {
		name  string
		resp  response
		is    []error
		isNot []error
		reads string
	}{
		{"401 Negotiate without a ticket", response{status: http.StatusUnauthorized, negotiate: true, body: []byte("Authentication required")},
			[]error{ErrKerberosRequired, ErrKerberos, ErrUnauthorized}, nil,
			"this cluster requires Kerberos; add auth.kerberos (principal, and keytab or ccache) to its configuration"},
		{"server clock skew", response{status: http.StatusForbidden, ticket: "ops@R",
			body: page("GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))")},
			[]error{ErrKerberos, ErrClockSkew, ErrUnauthorized}, []error{ErrKerberosRequired, ErrTicketExpired},
			"unauthorized (403 Forbidden): the server refused the Kerberos ticket of ops@R: GSSException: Failure unspecified at GSS-API level (Mechanism level: Clock skew too great (37))"},
		{"expired service ticket", response{status: http.StatusForbidden, ticket: "ops@R",
			body: page("GSSException: Failure unspecified at GSS-API level (Mechanism level: Ticket expired (32))")},
			[]error{ErrKerberos, ErrTicketExpired}, []error{ErrClockSkew},
			"the server refused the Kerberos ticket of ops@R"},
		{"ACL, not Kerberos", response{status: http.StatusForbidden, ticket: "viewer@R", body: acl},
			[]error{ErrUnauthorized}, []error{ErrKerberos, ErrKerberosRequired},
			"unauthorized (403 Forbidden): ForbiddenException: User viewer cannot perform operation MODIFY_APP on application_1_0001"},
		{"401 Basic is no Kerberos", response{status: http.StatusUnauthorized, body: []byte("no")},
			[]error{ErrUnauthorized}, []error{ErrKerberos, ErrKerberosRequired}, "unauthorized (401 Unauthorized)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.resp.url = "http://rm1:8088/ws/v1/cluster/apps"
			err := error(respError(http.MethodGet, &tc.resp))
			for _, k := range tc.is {
				if !errors.Is(err, k) {
					t.Errorf("%v is not %v", err, k)
				}
			}
			for _, k := range tc.isNot {
				if errors.Is(err, k) {
					t.Errorf("%v is %v", err, k)
				}
			}
			if !strings.Contains(err.Error(), tc.reads) {
				t.Errorf("%q lacks %q", err, tc.reads)
			}
		})
	}
}
