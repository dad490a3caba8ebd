// The values of a dandori Temporal Go package (docs/targets.md#temporal-go): every value a workflow
// holds, sends and receives is JSON as encoding/json reads it (map[string]any, []any, float64,
// string, bool, nil), never a struct, so that an absent field stays absent, a field no type names
// is kept, and an answer of the wrong shape reaches the workflow's check (Dandori.BadResponse).
// Numbers the workflow writes itself are int. `dandori build --target temporal-go` copies this
// file byte for byte but for its package clause.

package dandori

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Decode reads a JSON value (a task's arguments, a workflow's output) into a struct of types.go.
func Decode(value any, into any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

// ddNone is none as it travels: JSON null (the SDK would send nil as binary/null, which the
// TypeScript SDK reads as undefined and then leaves out of a record).
func ddNone() json.RawMessage {
	return json.RawMessage("null")
}

// ddField is a record's field, or nil when the value is no record or has no such field.
func ddField(v any, name string) any {
	m, _ := v.(map[string]any)
	return m[name]
}

// ddHas is true when the value is a record with the field.
func ddHas(v any, name string) bool {
	m, _ := v.(map[string]any)
	_, ok := m[name]
	return ok
}

// ddList is a list's items; no list has none.
func ddList(v any) []any {
	items, _ := v.([]any)
	if items == nil {
		return []any{}
	}
	return items
}

// ddOr is v, or `or` when v is none.
func ddOr(v any, or any) any {
	if v == nil {
		return or
	}
	return v
}

// ddNum is a number's value, whether encoding/json read it (float64) or the workflow wrote it (int).
func ddNum(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	default:
		return 0, false
	}
}

// ddNumberText is a number as JavaScript's String writes it: digits, an exponent from 1e21 on
// and below 1e-6.
func ddNumberText(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	if a := math.Abs(f); a >= 1e21 || a < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mantissa, exponent, _ := strings.Cut(s, "e")
		sign, digits := exponent[:1], strings.TrimLeft(exponent[1:], "0")
		return mantissa + "e" + sign + digits
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// ddText is a value written into a string: a string as it is, a number as digits, a bool as its
// word, anything else as its JSON.
func ddText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	default:
		if f, ok := ddNum(v); ok {
			return ddNumberText(f)
		}
		return ddJSON(v)
	}
}

// ddConcat is a string made of its parts, each written as ddText writes it.
func ddConcat(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(ddText(p))
	}
	return b.String()
}

// ddJSON is a value's JSON as JavaScript's JSON.stringify writes it, but for a record's keys,
// which are written in name order (a Go map has no order of its own).
func ddJSON(v any) string {
	var b strings.Builder
	ddWriteJSON(&b, v)
	return b.String()
}

// ddJSONObject is the JSON of a record of the given fields, in the order given; absent ones are left out.
func ddJSONObject(v map[string]any, names []string) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for _, n := range names {
		x, ok := v[n]
		if !ok {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		ddWriteString(&b, n)
		b.WriteByte(':')
		ddWriteJSON(&b, x)
	}
	b.WriteByte('}')
	return b.String()
}

func ddWriteJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		ddWriteString(b, x)
	case json.RawMessage:
		b.Write(x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			ddWriteJSON(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString(ddJSONObject(x, keys))
	default:
		if f, ok := ddNum(v); ok {
			b.WriteString(ddNumberText(f))
			return
		}
		// What encoding/json reads and the workflow writes is written above; this is any other value.
		data, err := json.Marshal(v)
		if err != nil {
			panic("dandori: a value that is no JSON: " + err.Error())
		}
		b.Write(data)
	}
}

// ddWriteString writes a JSON string as JSON.stringify does: `"`, `\` and the controls escaped,
// everything else as it is.
func ddWriteString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(r)>>4, 16))
				b.WriteString(strconv.FormatInt(int64(r)&15, 16))
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// ddIsObject is true when the value is a record (a JSON object).
func ddIsObject(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// The ends of an integer's range where the flow writes none: every integer a value may be.
const (
	ddMinInt = -(1<<53 - 1)
	ddMaxInt = 1<<53 - 1
)

// ddIsInt is true when the value is an integer in [lower, upper].
func ddIsInt(v any, lower, upper float64) bool {
	f, ok := ddNum(v)
	return ok && f == math.Trunc(f) && f >= ddMinInt && f <= ddMaxInt && f >= lower && f <= upper
}

// ddIsString is true when the value is a string.
func ddIsString(v any) bool {
	_, ok := v.(string)
	return ok
}

// ddIsBool is true when the value is true or false.
func ddIsBool(v any) bool {
	_, ok := v.(bool)
	return ok
}

// ddIsTime is true when the value is a timestamp in [first, after) (an empty end: open).
func ddIsTime(v any, first, after string) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	_, ok = ddTimestampMs(s)
	return ok && ddTimeIn(s, first, after)
}

// ddIsDate is true when the value is a date of the calendar in [first, last] (an empty end: open).
func ddIsDate(v any, first, last string) bool {
	s, ok := v.(string)
	return ok && ddDate(s) && ddDateIn(s, first, last)
}

// ddIsListOf is true when the value is a list whose every item passes the check.
func ddIsListOf(v any, item func(any) bool) bool {
	items, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range items {
		if !item(e) {
			return false
		}
	}
	return true
}

// ddIsOneOf is true when the value is one of the strings.
func ddIsOneOf(v any, values ...string) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, x := range values {
		if x == s {
			return true
		}
	}
	return false
}

// ddMaybe is true when the value is none or passes the check (a `T?` or `json` place).
func ddMaybe(v any, check func(any) bool) bool {
	return v == nil || check(v)
}

// ddPrefix is the first n bytes of s (all of it when shorter), never cutting a character.
func ddPrefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
