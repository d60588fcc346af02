package builtin

import "strings"

// Function is one of Flink's built-in functions as completion shows it: its
// signature, a line of description, and the release that brought it.
type Function struct {
	Name  string
	Sig   string
	Desc  string
	Kind  string // "", aggregate, over (ranking, LAG, LEAD), window, table
	Since Version
}

// fn makes a function from its signature; the name is what precedes '('.
func fn(sig, desc string) Function {
	name := sig
	if i := strings.IndexAny(sig, "( "); i > 0 {
		name = sig[:i]
	}
	return Function{Name: name, Sig: sig, Desc: desc}
}

func (f Function) agg() Function    { f.Kind = "aggregate"; return f }
func (f Function) over() Function   { f.Kind = "over"; return f }
func (f Function) tvf() Function    { f.Kind = "table"; return f }
func (f Function) window() Function { f.Kind = "window"; return f }
func (f Function) from(major, minor int) Function {
	f.Since = Version{major, minor}
	return f
}

// Functions are Flink's built-in functions (docs/dev/table/functions/
// systemFunctions.md), by family. Since is set where a release added the
// Function after 1.16 (the array and regexp families of 1.18 and 1.20, the
// AI and changelog functions of 2.x).
var Functions = []Function{
	// comparison, logic and conditions
	fn("COALESCE(value1, value2 [, ...])", "the first argument that is not NULL"),
	fn("NULLIF(value1, value2)", "NULL when both are equal, else value1"),
	fn("IF(condition, true_value, false_value)", "true_value when condition holds, else false_value"),
	fn("IFNULL(value, fallback)", "fallback when value is NULL"),
	fn("GREATEST(value1, value2 [, ...])", "the largest argument; NULL if any is NULL"),
	fn("LEAST(value1, value2 [, ...])", "the smallest argument; NULL if any is NULL"),
	fn("IS_ALPHA(string)", "TRUE when every character is a letter"),
	fn("IS_DECIMAL(string)", "TRUE when the string parses as a number"),
	fn("IS_DIGIT(string)", "TRUE when every character is a digit"),
	fn("TYPEOF(value [, force_serializable])", "the SQL type of the argument, as a string"),
	// arithmetic
	fn("ABS(numeric)", "absolute value"),
	fn("MOD(numeric1, numeric2)", "remainder of numeric1 divided by numeric2"),
	fn("POWER(numeric1, numeric2)", "numeric1 raised to numeric2"),
	fn("SQRT(numeric)", "square root"),
	fn("LN(numeric)", "natural logarithm"),
	fn("LOG10(numeric)", "base-10 logarithm"),
	fn("LOG2(numeric)", "base-2 logarithm"),
	fn("LOG([base,] numeric)", "logarithm, natural or to a base"),
	fn("EXP(numeric)", "e raised to numeric"),
	fn("CEIL(numeric)", "smallest integer not below the argument; CEIL(ts TO unit) rounds time up"),
	fn("CEILING(numeric)", "CEIL"),
	fn("FLOOR(numeric)", "largest integer not above the argument; FLOOR(ts TO unit) rounds time down"),
	fn("ROUND(numeric [, decimals])", "numeric rounded to decimals places"),
	fn("TRUNCATE(numeric [, decimals])", "numeric cut to decimals places"),
	fn("SIGN(numeric)", "-1, 0 or 1 by the sign of numeric"),
	fn("SIN(numeric)", "sine"), fn("COS(numeric)", "cosine"), fn("TAN(numeric)", "tangent"), fn("COT(numeric)", "cotangent"),
	fn("ASIN(numeric)", "arc sine"), fn("ACOS(numeric)", "arc cosine"), fn("ATAN(numeric)", "arc tangent"),
	fn("ATAN2(y, x)", "arc tangent of y/x"), fn("SINH(numeric)", "hyperbolic sine"), fn("COSH(numeric)", "hyperbolic cosine"),
	fn("TANH(numeric)", "hyperbolic tangent"), fn("DEGREES(radians)", "radians to degrees"), fn("RADIANS(degrees)", "degrees to radians"),
	fn("PI()", "π"), fn("E()", "e"),
	fn("RAND([seed])", "a random DOUBLE in [0, 1)"),
	fn("RAND_INTEGER([seed,] bound)", "a random INT in [0, bound)"),
	fn("UUID()", "a random RFC 4122 UUID string"),
	fn("BIN(integer)", "the integer in binary"),
	fn("HEX(numeric_or_string)", "the argument in hexadecimal"),
	fn("UNHEX(string)", "the bytes a hexadecimal string spells").from(1, 20),
	fn("PERCENTILE(value, percentage [, frequency])", "the value at a percentile of a group").agg(),
	// strings
	fn("CHAR_LENGTH(string)", "number of characters"), fn("CHARACTER_LENGTH(string)", "CHAR_LENGTH"),
	fn("UPPER(string)", "upper-case"), fn("LOWER(string)", "lower-case"), fn("INITCAP(string)", "first letter of each word upper-case"),
	fn("POSITION(substring IN string)", "1-based position of substring, 0 when absent"),
	fn("TRIM([BOTH | LEADING | TRAILING] [chars] FROM string)", "string without leading and/or trailing chars"),
	fn("LTRIM(string [, chars])", "string without leading spaces or chars"),
	fn("RTRIM(string [, chars])", "string without trailing spaces or chars"),
	fn("BTRIM(string [, chars])", "string without leading and trailing spaces or chars").from(1, 20),
	fn("REPEAT(string, times)", "string repeated"),
	fn("REPLACE(string, search, replacement)", "every search in string replaced"),
	fn("OVERLAY(string PLACING replacement FROM start [FOR length])", "string with a part replaced"),
	fn("SUBSTRING(string FROM start [FOR length])", "part of string from a 1-based start"),
	fn("SUBSTR(string, start [, length])", "part of string from a 1-based start"),
	fn("LEFT(string, length)", "the first length characters"),
	fn("RIGHT(string, length)", "the last length characters"),
	fn("LPAD(string, length, pad)", "string padded on the left to length"),
	fn("RPAD(string, length, pad)", "string padded on the right to length"),
	fn("CONCAT(string1, string2 [, ...])", "strings joined; NULL if any is NULL"),
	fn("CONCAT_WS(separator, string1 [, ...])", "strings joined by separator, NULLs skipped"),
	fn("REVERSE(string)", "string backwards"),
	fn("SPLIT_INDEX(string, separator, index)", "the index-th (0-based) part of string"),
	fn("SPLIT(string, delimiter)", "string split into an ARRAY<STRING>").from(1, 20),
	fn("STR_TO_MAP(string [, pair_delimiter, key_value_delimiter])", "a MAP from 'k1=v1,k2=v2'"),
	fn("LOCATE(substring, string [, start])", "1-based position of substring after start, 0 when absent"),
	fn("INSTR(string, substring)", "1-based position of the first substring, 0 when absent"),
	fn("ASCII(string)", "code of the first character"),
	fn("CHR(integer)", "the character of an ASCII code"),
	fn("DECODE(binary, charset)", "bytes to a string in a charset"),
	fn("ENCODE(string, charset)", "a string to bytes in a charset"),
	fn("FROM_BASE64(string)", "base64 decoded"), fn("TO_BASE64(string)", "base64 encoded"),
	fn("MD5(string)", "MD5 hash, 32 hex digits"), fn("SHA1(string)", "SHA-1 hash"), fn("SHA224(string)", "SHA-224 hash"),
	fn("SHA256(string)", "SHA-256 hash"), fn("SHA384(string)", "SHA-384 hash"), fn("SHA512(string)", "SHA-512 hash"),
	fn("SHA2(string, bits)", "SHA-2 hash of 224, 256, 384 or 512 bits"),
	fn("PARSE_URL(url, part [, key])", "a part of a URL: HOST, PATH, QUERY, QUERY key, ..."),
	fn("URL_DECODE(string)", "application/x-www-form-urlencoded decoded").from(1, 20),
	fn("URL_ENCODE(string)", "application/x-www-form-urlencoded encoded").from(1, 20),
	fn("PRINTF(format, args...)", "a string formatted like Java's String.format").from(1, 20),
	fn("TRANSLATE(string, from_chars, to_chars)", "characters of string replaced one for one").from(1, 20),
	fn("ELT(index, expr1 [, ...])", "the index-th (1-based) argument").from(1, 20),
	fn("REGEXP(string, regex)", "TRUE when regex matches part of string"),
	fn("REGEXP_REPLACE(string, regex, replacement)", "every match of regex replaced"),
	fn("REGEXP_EXTRACT(string, regex [, group])", "the group of the first match"),
	fn("REGEXP_EXTRACT_ALL(string, regex [, group])", "the group of every match, as an array").from(1, 20),
	fn("REGEXP_COUNT(string, regex)", "number of matches").from(1, 20),
	fn("REGEXP_INSTR(string, regex)", "1-based position of the first match, 0 when none").from(1, 20),
	fn("REGEXP_SUBSTR(string, regex)", "the first match").from(1, 20),
	fn("IS_VALID_UTF8(bytes)", "TRUE when the bytes are valid UTF-8").from(2, 3),
	fn("MAKE_VALID_UTF8(bytes)", "the bytes as UTF-8, invalid sequences replaced").from(2, 3),
	// temporal
	fn("DATE_FORMAT(timestamp, format)", "a timestamp as a string, like 'yyyy-MM-dd HH:mm:ss'"),
	fn("TIMESTAMPADD(unit, interval, timestamp)", "timestamp plus interval units"),
	fn("TIMESTAMPDIFF(unit, timestamp1, timestamp2)", "units from timestamp1 to timestamp2"),
	fn("DATEDIFF(date1, date2)", "days from date2 to date1"),
	fn("CONVERT_TZ(string, from_tz, to_tz)", "a datetime string moved from one time zone to another"),
	fn("FROM_UNIXTIME(seconds [, format])", "epoch seconds as a string in the session time zone"),
	fn("UNIX_TIMESTAMP([string [, format]])", "epoch seconds, now or of a datetime string"),
	fn("TO_DATE(string [, format])", "a DATE from a string"),
	fn("TO_TIMESTAMP(string [, format])", "a TIMESTAMP(3) from a string, in the session time zone"),
	fn("TO_TIMESTAMP_LTZ(numeric, precision)", "a TIMESTAMP_LTZ from epoch seconds (0) or millis (3)"),
	fn("CURRENT_WATERMARK(rowtime)", "the current watermark of a time attribute, NULL before the first"),
	fn("CURRENT_ROW_TIMESTAMP()", "the time of the current row, TIMESTAMP_LTZ(3)"),
	fn("NOW()", "the current time, TIMESTAMP_LTZ(3)"),
	fn("PROCTIME()", "a processing-time attribute"),
	fn("SOURCE_WATERMARK()", "the watermark the source emits, in a WATERMARK declaration"),
	fn("EXTRACT(unit FROM temporal)", "a field of a date, time or interval"),
	fn("YEAR(date)", "the year"), fn("QUARTER(date)", "the quarter, 1 to 4"), fn("MONTH(date)", "the month, 1 to 12"),
	fn("WEEK(date)", "the ISO week of the year"), fn("DAYOFYEAR(date)", "the day of the year"),
	fn("DAYOFMONTH(date)", "the day of the month"), fn("DAYOFWEEK(date)", "the day of the week, 1 (Sunday) to 7"),
	fn("HOUR(timestamp)", "the hour"), fn("MINUTE(timestamp)", "the minute"), fn("SECOND(timestamp)", "the second"),
	// JSON
	fn("JSON_VALUE(json, path [RETURNING type] [ON EMPTY] [ON ERROR])", "the scalar at a JSON path"),
	fn("JSON_QUERY(json, path [RETURNING type] [WRAPPER] [ON EMPTY] [ON ERROR])", "the object or array at a JSON path"),
	fn("JSON_EXISTS(json, path [ON ERROR])", "TRUE when the JSON path finds something"),
	fn("JSON_STRING(value)", "the value serialized as JSON"),
	fn("JSON_OBJECT([KEY key VALUE value, ...] [NULL | ABSENT ON NULL])", "a JSON object"),
	fn("JSON_ARRAY([value, ...] [NULL | ABSENT ON NULL])", "a JSON array"),
	fn("JSON_QUOTE(string)", "a string as a quoted JSON string"),
	fn("JSON_UNQUOTE(string)", "a quoted JSON string unquoted"),
	fn("JSON_OBJECTAGG(KEY key VALUE value)", "a JSON object of a group's key and value pairs").agg(),
	fn("JSON_ARRAYAGG(value [ORDER BY ...])", "a JSON array of a group's values").agg(),
	fn("PARSE_JSON(json [, allow_duplicate_keys])", "a VARIANT parsed from JSON; fails on bad JSON").from(2, 1),
	fn("TRY_PARSE_JSON(json [, allow_duplicate_keys])", "a VARIANT parsed from JSON; NULL on bad JSON").from(2, 1),
	// collections
	fn("CARDINALITY(array_or_map)", "number of elements"),
	fn("ELEMENT(array)", "the only element of a one-element array"),
	fn("ARRAY_CONTAINS(array, value)", "TRUE when the array holds value").from(1, 18),
	fn("ARRAY_DISTINCT(array)", "the array without duplicates").from(1, 18),
	fn("ARRAY_POSITION(array, value)", "1-based position of value, 0 when absent").from(1, 18),
	fn("ARRAY_REMOVE(array, value)", "the array without value").from(1, 18),
	fn("ARRAY_REVERSE(array)", "the array backwards").from(1, 18),
	fn("ARRAY_SLICE(array, start [, end])", "part of the array, 1-based").from(1, 18),
	fn("ARRAY_UNION(array1, array2)", "elements of both, without duplicates").from(1, 18),
	fn("ARRAY_APPEND(array, value)", "the array with value at the end").from(1, 18),
	fn("ARRAY_PREPEND(array, value)", "the array with value at the start").from(1, 18),
	fn("ARRAY_CONCAT(array1 [, ...])", "the arrays one after another").from(1, 18),
	fn("ARRAY_MAX(array)", "the largest element").from(1, 18),
	fn("ARRAY_MIN(array)", "the smallest element").from(1, 18),
	fn("ARRAY_JOIN(array, delimiter [, null_replacement])", "the elements as one string").from(1, 18),
	fn("ARRAY_EXCEPT(array1, array2)", "elements of array1 not in array2").from(1, 20),
	fn("ARRAY_INTERSECT(array1, array2)", "elements in both").from(1, 20),
	fn("ARRAY_SORT(array [, ascending [, nulls_first]])", "the array sorted").from(1, 20),
	fn("MAP_KEYS(map)", "the keys as an array").from(1, 18),
	fn("MAP_VALUES(map)", "the values as an array").from(1, 18),
	fn("MAP_ENTRIES(map)", "the entries as an array of rows").from(1, 18),
	fn("MAP_FROM_ARRAYS(keys, values)", "a map from an array of keys and one of values").from(1, 18),
	fn("MAP_UNION(map1 [, ...])", "the maps merged, later keys winning").from(1, 18),
	// hashing, values and time attributes of windows
	fn("HASH_CODE(value)", "a hash of the value"),
	fn("GROUP_ID()", "id of the grouping set of a row"),
	fn("GROUPING(expr [, ...])", "bit vector of the grouping expressions left out of a row's set"),
	fn("GROUPING_ID(expr [, ...])", "GROUPING"),
	fn("TUMBLE_START(time_attr, interval)", "start of a group window (legacy group-window syntax)"),
	fn("TUMBLE_END(time_attr, interval)", "end of a group window"),
	fn("TUMBLE_ROWTIME(time_attr, interval)", "rowtime of a group window"),
	fn("TUMBLE_PROCTIME(time_attr, interval)", "proctime of a group window"),
	fn("HOP_START(time_attr, slide, size)", "start of a hop group window"),
	fn("HOP_END(time_attr, slide, size)", "end of a hop group window"),
	fn("SESSION_START(time_attr, gap)", "start of a session group window"),
	fn("SESSION_END(time_attr, gap)", "end of a session group window"),
	// aggregates
	fn("COUNT([DISTINCT] expr | *)", "number of rows, or of non-NULL values").agg(),
	fn("SUM([DISTINCT] numeric)", "sum of the values").agg(),
	fn("AVG([DISTINCT] numeric)", "average of the values").agg(),
	fn("MIN(value)", "smallest value").agg(),
	fn("MAX(value)", "largest value").agg(),
	fn("STDDEV_POP(numeric)", "population standard deviation").agg(),
	fn("STDDEV_SAMP(numeric)", "sample standard deviation").agg(),
	fn("VAR_POP(numeric)", "population variance").agg(),
	fn("VAR_SAMP(numeric)", "sample variance").agg(),
	fn("COLLECT(value)", "the values as a MULTISET").agg(),
	fn("LISTAGG(string [, separator])", "the values joined, by ',' by default").agg(),
	fn("FIRST_VALUE(value)", "the first value of the group or window").agg(),
	fn("LAST_VALUE(value)", "the last value of the group or window").agg(),
	fn("ARRAY_AGG([DISTINCT] value [RESPECT | IGNORE NULLS])", "the values as an ARRAY").agg().from(1, 20),
	fn("ROW_NUMBER()", "1-based number of the row in its partition (OVER)").over(),
	fn("RANK()", "rank of the row in its partition, with gaps (OVER)").over(),
	fn("DENSE_RANK()", "rank of the row in its partition, without gaps (OVER)").over(),
	fn("PERCENT_RANK()", "relative rank, 0 to 1 (OVER)").over(),
	fn("CUME_DIST()", "cumulative distribution, 0 to 1 (OVER)").over(),
	fn("NTILE(buckets)", "bucket number of the row (OVER)").over(),
	fn("LAG(value [, offset [, default]])", "the value offset rows before (OVER)").over(),
	fn("LEAD(value [, offset [, default]])", "the value offset rows after (OVER)").over(),
	// window table-valued functions and other table functions
	fn("TUMBLE(TABLE t, DESCRIPTOR(time_col), size [, offset])", "fixed, non-overlapping windows").window(),
	fn("HOP(TABLE t, DESCRIPTOR(time_col), slide, size [, offset])", "fixed windows that overlap by slide").window(),
	fn("CUMULATE(TABLE t, DESCRIPTOR(time_col), step, size)", "windows that grow by step up to size").window(),
	fn("SESSION(TABLE t [PARTITION BY keys], DESCRIPTOR(time_col), gap)", "windows closed by a gap of inactivity").window(),
	fn("ML_PREDICT(TABLE t, MODEL m, DESCRIPTOR(cols) [, config])", "the rows of t with a model's predictions").tvf().from(2, 1),
	fn("ML_EVALUATE(TABLE t, MODEL m, DESCRIPTOR(label), DESCRIPTOR(features) [, task [, config]])", "metrics of a model on labelled rows").tvf().from(2, 2),
	fn("VECTOR_SEARCH(TABLE t, DESCRIPTOR(col), query_vector, top_k [, config])", "the rows nearest a vector").tvf().from(2, 2),
	fn("FROM_CHANGELOG(TABLE t [PARTITION BY keys] [, ...])", "an append-only stream of change rows as a dynamic table").tvf().from(2, 3),
	fn("TO_CHANGELOG(TABLE t [PARTITION BY keys] [, ...])", "a dynamic table as an append-only stream of change rows").tvf().from(2, 3),
}

var functionIndex = map[string]*Function{}

// FunctionNamed returns the built-in function of that name (any case).
func FunctionNamed(name string) *Function { return functionIndex[UpperWord(name)] }

func init() {
	for i, f := range Functions {
		functionIndex[f.Name] = &Functions[i]
		if !ReservedWords[f.Name] {
			BuiltinFunctions[f.Name] = true
		}
		if f.Kind == "aggregate" {
			AggregateFuncs[f.Name] = true
		}
	}
}
