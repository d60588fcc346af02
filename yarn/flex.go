package yarn

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The servers are not consistent with their own docs about a few scalar
// types (the RM documents app "priority" and attempt "id" as strings but
// sends numbers; the fifo scheduler sends usedCapacity as the string "NaN";
// Hadoop 2 RMs render a one-element list as a bare object). These types
// accept every shape seen, so one odd field never fails a whole listing.

// flexString accepts a JSON string, number or boolean.
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*s = ""
	case len(b) > 0 && b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9' || b[0] == 't' || b[0] == 'f'):
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(string(b))
	default:
		return fmt.Errorf("want a string or number, got %s", clip(string(b), 40))
	}
	return nil
}

// flexFloat accepts a JSON number or a string holding one (including "NaN").
type flexFloat float64

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*f = 0
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*f = 0
			return nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("want a number, got %q", clip(s, 40))
		}
		*f = flexFloat(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = flexFloat(v)
	return nil
}

// MarshalJSON keeps NaN and ±Inf, which JSON numbers cannot carry, as strings.
func (f flexFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return json.Marshal(strconv.FormatFloat(v, 'g', -1, 64))
	}
	return json.Marshal(v)
}

// listOf decodes the RM's `{"x":[…]}` collections whose element list may
// be null (empty collection), an array, or a lone object (old Jersey JSON).
type listOf[T any] []T

// UnmarshalJSON accepts null, an array or a lone object.
func (l *listOf[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*l = nil
		return nil
	case len(b) > 0 && b[0] == '{':
		var one T
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*l = listOf[T]{one}
		return nil
	}
	var many []T
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// flexID reads a Flink id (ApplicationID, SlotSharingGroupId). Flink
// writes them as hex strings through custom serializers, while the OpenAPI
// spec describes the Java object ({"bytes": base64, "lowerPart",
// "upperPart"}); both decode to the hex string.
type flexID string

func (id *flexID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*id = ""
		return nil
	case len(b) > 0 && b[0] == '{':
		var o struct {
			Bytes string `json:"bytes"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		raw, err := base64.StdEncoding.DecodeString(o.Bytes)
		if err != nil {
			return fmt.Errorf("id bytes: %w", err)
		}
		*id = flexID(hex.EncodeToString(raw))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*id = flexID(s)
	return nil
}
