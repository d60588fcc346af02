package builtin

// ReservedWords are the words Flink's parser reserves: Calcite's keywords and
// Flink's own (flink-sql-parser Parser.tdd) minus its nonReservedKeywords.
// Used unquoted as a name they are a parse error in Flink, so they are here too.
var ReservedWords = map[string]bool{
	"ABS": true, "ALL": true, "ALLOCATE": true, "ALLOW": true, "ALTER": true, "AND": true,
	"ANY": true, "ARE": true, "ARRAY": true, "AS": true, "ASENSITIVE": true, "ASYMMETRIC": true,
	"AT": true, "ATOMIC": true, "AUTHORIZATION": true, "AVG": true, "BEGIN": true, "BETWEEN": true,
	"BIGINT": true, "BINARY": true, "BIT": true, "BLOB": true, "BOOLEAN": true, "BOTH": true,
	"BUCKETS": true, "BY": true, "BYTES": true, "CALL": true, "CALLED": true, "CARDINALITY": true,
	"CASCADED": true, "CASE": true, "CAST": true, "CATALOGS": true, "CEIL": true, "CEILING": true,
	"CHAR": true, "CHARACTER": true, "CHARACTER_LENGTH": true, "CHAR_LENGTH": true, "CHECK": true, "CLOB": true,
	"CLOSE": true, "COALESCE": true, "COLLATE": true, "COLLECT": true, "COLUMN": true, "COMMENT": true,
	"COMMIT": true, "CONDITION": true, "CONNECT": true, "CONNECTIONS": true, "CONSTRAINT": true, "CONTAINS": true,
	"CONTINUOUS": true, "CONVERT": true, "CORR": true, "CORRESPONDING": true, "COUNT": true, "COVAR_POP": true,
	"COVAR_SAMP": true, "CREATE": true, "CROSS": true, "CUBE": true, "CUME_DIST": true, "CURRENT": true,
	"CURRENT_CATALOG": true, "CURRENT_DATE": true, "CURRENT_DEFAULT_TRANSFORM_GROUP": true, "CURRENT_PATH": true, "CURRENT_ROLE": true, "CURRENT_SCHEMA": true,
	"CURRENT_TIME": true, "CURRENT_TIMESTAMP": true, "CURRENT_TRANSFORM_GROUP_FOR_TYPE": true, "CURRENT_USER": true, "CURSOR": true, "CYCLE": true,
	"DATABASES": true, "DATE": true, "DAY": true, "DEALLOCATE": true, "DEC": true, "DECIMAL": true,
	"DECLARE": true, "DEFAULT": true, "DELETE": true, "DENSE_RANK": true, "DEREF": true, "DESCRIBE": true,
	"DETERMINISTIC": true, "DISALLOW": true, "DISCONNECT": true, "DISTINCT": true, "DISTRIBUTED": true, "DISTRIBUTION": true,
	"DOUBLE": true, "DROP": true, "DYNAMIC": true, "EACH": true, "ELEMENT": true, "ELSE": true,
	"END": true, "EQUALS": true, "ESCAPE": true, "EVERY": true, "EXCEPT": true, "EXEC": true,
	"EXECUTE": true, "EXISTS": true, "EXP": true, "EXPLAIN": true, "EXTEND": true, "EXTENDED": true,
	"EXTERNAL": true, "EXTRACT": true, "FALSE": true, "FETCH": true, "FILTER": true, "FIRST_VALUE": true,
	"FLOAT": true, "FLOOR": true, "FOR": true, "FOREIGN": true, "FREE": true, "FRESHNESS": true,
	"FROM": true, "FULL": true, "FUNCTION": true, "FUNCTIONS": true, "FUSION": true, "GET": true,
	"GLOBAL": true, "GRANT": true, "GROUP": true, "GROUPING": true, "HASH": true, "HAVING": true,
	"HOLD": true, "HOUR": true, "IDENTITY": true, "IMPORT": true, "IN": true, "INDICATOR": true,
	"INNER": true, "INOUT": true, "INSENSITIVE": true, "INSERT": true, "INT": true, "INTEGER": true,
	"INTERSECT": true, "INTERSECTION": true, "INTERVAL": true, "INTO": true, "IS": true, "JOIN": true,
	"LANGUAGE": true, "LARGE": true, "LAST_VALUE": true, "LATERAL": true, "LEADING": true, "LEFT": true,
	"LIKE": true, "LIMIT": true, "LN": true, "LOCAL": true, "LOCALTIME": true, "LOCALTIMESTAMP": true,
	"LOWER": true, "MATCH": true, "MATERIALIZED": true, "MAX": true, "MEMBER": true, "MERGE": true,
	"METHOD": true, "MIN": true, "MINUTE": true, "MOD": true, "MODELS": true, "MODIFIES": true,
	"MODIFY": true, "MODULE": true, "MODULES": true, "MONTH": true, "MULTISET": true, "NATIONAL": true,
	"NATURAL": true, "NCHAR": true, "NCLOB": true, "NEW": true, "NEXT": true, "NO": true,
	"NONE": true, "NORMALIZE": true, "NOT": true, "NULL": true, "NULLIF": true, "NUMERIC": true,
	"OCTET_LENGTH": true, "OF": true, "OFFSET": true, "OLD": true, "ON": true, "ONLY": true,
	"OPEN": true, "OR": true, "ORDER": true, "OUT": true, "OUTER": true, "OVER": true,
	"OVERLAPS": true, "OVERLAY": true, "PARAMETER": true, "PARTITION": true, "PERCENTILE_CONT": true, "PERCENTILE_DISC": true,
	"PERCENT_RANK": true, "POSITION": true, "POWER": true, "PRECISION": true, "PREPARE": true, "PRIMARY": true,
	"PROCEDURE": true, "PROCEDURES": true, "RANGE": true, "RANK": true, "RAW": true, "READS": true,
	"REAL": true, "RECURSIVE": true, "REF": true, "REFERENCES": true, "REFERENCING": true, "REFRESH": true,
	"REFRESH_MODE": true, "REGR_AVGX": true, "REGR_AVGY": true, "REGR_COUNT": true, "REGR_INTERCEPT": true, "REGR_R2": true,
	"REGR_SLOPE": true, "REGR_SXX": true, "REGR_SXY": true, "REGR_SYY": true, "RELEASE": true, "RENAME": true,
	"RESET": true, "RESULT": true, "RESUME": true, "RETURN": true, "RETURNS": true, "REVOKE": true,
	"RIGHT": true, "ROLLBACK": true, "ROLLUP": true, "ROW": true, "ROWS": true, "ROW_NUMBER": true,
	"SAVEPOINT": true, "SCALA": true, "SCOPE": true, "SCROLL": true, "SEARCH": true, "SECOND": true,
	"SELECT": true, "SENSITIVE": true, "SESSION_USER": true, "SET": true, "SIMILAR": true, "SMALLINT": true,
	"SOME": true, "SPECIFIC": true, "SPECIFICTYPE": true, "SQL": true, "SQLEXCEPTION": true, "SQLSTATE": true,
	"SQLWARNING": true, "SQRT": true, "START": true, "STATEMENT": true, "STATIC": true, "STDDEV_POP": true,
	"STDDEV_SAMP": true, "STREAM": true, "STRING": true, "STRUCTURED": true, "SUBMULTISET": true, "SUBSTRING": true,
	"SUM": true, "SUSPEND": true, "SYMMETRIC": true, "SYSTEM": true, "SYSTEM_USER": true, "TABLE": true,
	"TABLES": true, "TABLESAMPLE": true, "THEN": true, "TIME": true, "TIMESTAMP": true, "TIMESTAMP_LTZ": true,
	"TIMEZONE_HOUR": true, "TIMEZONE_MINUTE": true, "TINYINT": true, "TO": true, "TRAILING": true, "TRANSLATE": true,
	"TRANSLATION": true, "TREAT": true, "TRIGGER": true, "TRIM": true, "TRUE": true, "UESCAPE": true,
	"UNION": true, "UNIQUE": true, "UNKNOWN": true, "UNNEST": true, "UPDATE": true, "UPPER": true,
	"UPSERT": true, "USE": true, "USER": true, "USING": true, "VALUE": true, "VALUES": true,
	"VARBINARY": true, "VARCHAR": true, "VARYING": true, "VAR_POP": true, "VAR_SAMP": true, "VIEWS": true,
	"WATERMARK": true, "WATERMARKS": true, "WHEN": true, "WHENEVER": true, "WHERE": true, "WIDTH_BUCKET": true,
	"WINDOW": true, "WITH": true, "WITHIN": true, "WITHOUT": true, "YEAR": true,
}

// nonReservedWords are Flink keywords that may also be used as names.
var nonReservedWords = map[string]bool{
	"A": true, "ABSENT": true, "ABSOLUTE": true, "ACTION": true, "ADA": true, "ADD": true,
	"ADMIN": true, "AFTER": true, "ALWAYS": true, "ANALYZE": true, "APPLY": true, "ARRAY_AGG": true,
	"ASC": true, "ASSERTION": true, "ASSIGNMENT": true, "ATTRIBUTE": true, "ATTRIBUTES": true, "BEFORE": true,
	"BERNOULLI": true, "BREADTH": true, "C": true, "CASCADE": true, "CATALOG": true, "CATALOG_NAME": true,
	"CENTURY": true, "CHAIN": true, "CHANGELOG_MODE": true, "CHARACTERISTICS": true, "CHARACTERS": true, "CHARACTER_SET_CATALOG": true,
	"CHARACTER_SET_NAME": true, "CHARACTER_SET_SCHEMA": true, "CLASS_ORIGIN": true, "COBOL": true, "COLLATION": true, "COLLATION_CATALOG": true,
	"COLLATION_NAME": true, "COLLATION_SCHEMA": true, "COLUMNS": true, "COLUMN_NAME": true, "COMMAND_FUNCTION": true, "COMMAND_FUNCTION_CODE": true,
	"COMMITTED": true, "COMPILE": true, "COMPUTE": true, "CONDITIONAL": true, "CONDITION_NUMBER": true, "CONNECTION": true,
	"CONNECTION_NAME": true, "CONSTRAINTS": true, "CONSTRAINT_CATALOG": true, "CONSTRAINT_NAME": true, "CONSTRAINT_SCHEMA": true, "CONSTRUCTOR": true,
	"CONTINUE": true, "CURSOR_NAME": true, "DATA": true, "DATABASE": true, "DATETIME_DIFF": true, "DATETIME_INTERVAL_CODE": true,
	"DATETIME_INTERVAL_PRECISION": true, "DATE_DIFF": true, "DAYOFWEEK": true, "DAYOFYEAR": true, "DAYS": true, "DECADE": true,
	"DEFAULTS": true, "DEFERRABLE": true, "DEFERRED": true, "DEFINED": true, "DEFINER": true, "DEGREE": true,
	"DEPTH": true, "DERIVED": true, "DESC": true, "DESCRIPTION": true, "DESCRIPTOR": true, "DIAGNOSTICS": true,
	"DISPATCH": true, "DOMAIN": true, "DOW": true, "DOY": true, "DRAIN": true, "DYNAMIC_FUNCTION": true,
	"DYNAMIC_FUNCTION_CODE": true, "ENCODING": true, "ENFORCED": true, "EPOCH": true, "ERROR": true, "ESTIMATED_COST": true,
	"EXCEPTION": true, "EXCLUDE": true, "EXCLUDING": true, "FINAL": true, "FIRST": true, "FOLLOWING": true,
	"FORMAT": true, "FORTRAN": true, "FOUND": true, "FRAC_SECOND": true, "G": true, "GENERAL": true,
	"GENERATED": true, "GEOMETRY": true, "GO": true, "GOTO": true, "GRANTED": true, "HIERARCHY": true,
	"HOP": true, "HOURS": true, "IF": true, "IGNORE": true, "IMMEDIATE": true, "IMMEDIATELY": true,
	"IMPLEMENTATION": true, "INCLUDING": true, "INCREMENT": true, "INITIALLY": true, "INPUT": true, "INSTANCE": true,
	"INSTANTIABLE": true, "INVOKER": true, "ISODOW": true, "ISOLATION": true, "ISOYEAR": true, "JAR": true,
	"JARS": true, "JAVA": true, "JOB": true, "JOBS": true, "JSON": true, "JSON_EXECUTION_PLAN": true,
	"K": true, "KEY": true, "KEY_MEMBER": true, "KEY_TYPE": true, "LABEL": true, "LAST": true,
	"LENGTH": true, "LEVEL": true, "LIBRARY": true, "LOAD": true, "LOCATOR": true, "M": true,
	"MAP": true, "MATCHED": true, "MAXVALUE": true, "MESSAGE_LENGTH": true, "MESSAGE_OCTET_LENGTH": true, "MESSAGE_TEXT": true,
	"METADATA": true, "MICROSECOND": true, "MILLENNIUM": true, "MILLISECOND": true, "MINUTES": true, "MINVALUE": true,
	"MODEL": true, "MONTHS": true, "MORE": true, "MUMPS": true, "NAME": true, "NAMES": true,
	"NANOSECOND": true, "NESTING": true, "NORMALIZED": true, "NULLABLE": true, "NULLS": true, "NUMBER": true,
	"OBJECT": true, "OCTETS": true, "OPTION": true, "OPTIONS": true, "ORDERING": true, "ORDINALITY": true,
	"OTHERS": true, "OUTPUT": true, "OVERRIDING": true, "OVERWRITE": true, "OVERWRITING": true, "PAD": true,
	"PARAMETER_MODE": true, "PARAMETER_NAME": true, "PARAMETER_ORDINAL_POSITION": true, "PARAMETER_SPECIFIC_CATALOG": true, "PARAMETER_SPECIFIC_NAME": true, "PARAMETER_SPECIFIC_SCHEMA": true,
	"PARTIAL": true, "PARTITIONED": true, "PARTITIONS": true, "PASCAL": true, "PASSING": true, "PASSTHROUGH": true,
	"PAST": true, "PATH": true, "PLACING": true, "PLAN": true, "PLAN_ADVICE": true, "PLI": true,
	"PRECEDING": true, "PRESERVE": true, "PRIOR": true, "PRIVILEGES": true, "PUBLIC": true, "PYTHON": true,
	"QUARTER": true, "READ": true, "RELATIVE": true, "REMOVE": true, "REPEATABLE": true, "REPLACE": true,
	"RESPECT": true, "RESTART": true, "RESTRICT": true, "RETURNED_CARDINALITY": true, "RETURNED_LENGTH": true, "RETURNED_OCTET_LENGTH": true,
	"RETURNED_SQLSTATE": true, "RETURNING": true, "ROLE": true, "ROUTINE": true, "ROUTINE_CATALOG": true, "ROUTINE_NAME": true,
	"ROUTINE_SCHEMA": true, "ROW_COUNT": true, "SCALAR": true, "SCALE": true, "SCHEMA": true, "SCHEMA_NAME": true,
	"SCOPE_CATALOGS": true, "SCOPE_NAME": true, "SCOPE_SCHEMA": true, "SECONDS": true, "SECTION": true, "SECURITY": true,
	"SELF": true, "SEQUENCE": true, "SERIALIZABLE": true, "SERVER": true, "SERVER_NAME": true, "SESSION": true,
	"SETS": true, "SIMPLE": true, "SIZE": true, "SOURCE": true, "SPACE": true, "SPECIFIC_NAME": true,
	"STATE": true, "STATISTICS": true, "STOP": true, "STRUCTURE": true, "STYLE": true, "SUBCLASS_ORIGIN": true,
	"SUBSTITUTE": true, "TABLE_NAME": true, "TEMPORARY": true, "TIES": true, "TIMESTAMPADD": true, "TIMESTAMPDIFF": true,
	"TOP_LEVEL_COUNT": true, "TRANSACTION": true, "TRANSACTIONS_ACTIVE": true, "TRANSACTIONS_COMMITTED": true, "TRANSACTIONS_ROLLED_BACK": true, "TRANSFORM": true,
	"TRANSFORMS": true, "TRIGGER_CATALOG": true, "TRIGGER_NAME": true, "TRIGGER_SCHEMA": true, "TUMBLE": true, "TYPE": true,
	"UNBOUNDED": true, "UNCOMMITTED": true, "UNCONDITIONAL": true, "UNDER": true, "UNLOAD": true, "UNNAMED": true,
	"USAGE": true, "USER_DEFINED_TYPE_CATALOG": true, "USER_DEFINED_TYPE_CODE": true, "USER_DEFINED_TYPE_NAME": true, "USER_DEFINED_TYPE_SCHEMA": true, "UTF16": true,
	"UTF32": true, "UTF8": true, "VERSION": true, "VIEW": true, "VIRTUAL": true, "WEEK": true,
	"WORK": true, "WRAPPER": true, "WRITE": true, "XML": true, "YEARS": true, "ZONE": true,
}

// reservedSince are the words Flink reserved after its oldest release palink
// knows, with the release that did: the keywords of flink-sql-parser's
// Parser.tdd that are in neither nonReservedKeywords nor
// nonReservedKeywordsToAdd, release by release. Before it, such a word is
// an ordinary name.
var reservedSince = map[string]Version{
	"PROCEDURES": {1, 18},
	"BUCKETS":    {1, 20}, "CONTINUOUS": {1, 20}, "DISTRIBUTED": {1, 20}, "DISTRIBUTION": {1, 20},
	"FRESHNESS": {1, 20}, "HASH": {1, 20}, "MATERIALIZED": {1, 20}, "REFRESH": {1, 20},
	"REFRESH_MODE": {1, 20}, "RESUME": {1, 20}, "SUSPEND": {1, 20},
	"MODELS":      {2, 0},
	"STRUCTURED":  {2, 1},
	"CONNECTIONS": {2, 2},
}

// reservedIn reports whether the upper-case word w is reserved in release v
// (the zero Version: Latest).
func reservedIn(w string, v Version) bool {
	if !ReservedWords[w] {
		return false
	}
	since, ok := reservedSince[w]
	return !ok || !v.Before(since)
}

// IsReserved reports whether word (any case) is reserved in Flink SQL: used
// unquoted as a name, Flink rejects it.
func IsReserved(word string) bool { return ReservedWords[UpperWord(word)] }

// IsReservedIn reports whether word (any case) is reserved in release v.
func IsReservedIn(word string, v Version) bool { return reservedIn(UpperWord(word), v) }

// IsKeyword reports whether word (any case) is a Flink SQL keyword,
// Reserved or not; an editor highlights these.
func IsKeyword(word string) bool {
	w := UpperWord(word)
	return ReservedWords[w] || nonReservedWords[w]
}

// StructuralWords are reserved words that palink's parser never takes as a
// name, even leniently (it takes other reserved words, with an error saying
// to quote them): doing so would only turn a clear error into a confusing
// one. Completion reads a statement's table names the same way.
var StructuralWords = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true,
	"BY": true, "LIMIT": true, "OFFSET": true, "FETCH": true, "UNION": true, "INTERSECT": true,
	"EXCEPT": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true,
	"CROSS": true, "NATURAL": true, "ON": true, "USING": true, "AS": true, "AND": true, "OR": true,
	"NOT": true, "IS": true, "IN": true, "BETWEEN": true, "LIKE": true, "SIMILAR": true,
	"ESCAPE": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true,
	"WINDOW": true, "OVER": true, "PARTITION": true, "WITH": true, "VALUES": true, "INTO": true,
	"SET": true, "FOR": true, "ALL": true, "DISTINCT": true, "TABLE": true, "CREATE": true,
	"DROP": true, "ALTER": true, "INSERT": true, "BEGIN": true, "EXECUTE": true, "EXPLAIN": true,
	"LATERAL": true, "UNNEST": true, "WATERMARK": true, "PRIMARY": true, "CONSTRAINT": true,
	"COMMENT": true, "FILTER": true, "WITHIN": true, "ROWS": true, "RANGE": true, "TO": true,
	"OF": true, "NULL": true, "TRUE": true, "FALSE": true, "UNKNOWN": true, "CAST": true,
	"INTERVAL": true, "EXISTS": true, "ROW": true, "ARRAY": true, "MULTISET": true,
	"DESCRIBE": true, "RESET": true, "USE": true, "SOME": true, "ANY": true,
	"UNIQUE": true, "DEFAULT": true, "RETURN": true, "RETURNS": true, "LANGUAGE": true,
}

// NoAliasWords are words that may follow a table or select item and so are
// not taken as an alias written without AS, although Flink does not reserve
// them (the parser and completion alike).
var NoAliasWords = map[string]bool{
	"MATCH_RECOGNIZE": true, "MINUS": true, "APPLY": true, "MEASURES": true, "PATTERN": true,
	"DEFINE": true, "SUBSET": true, "ONE": true, "AFTER": true, "EMIT": true, "QUALIFY": true,
}
