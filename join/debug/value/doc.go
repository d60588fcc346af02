// Package value is Flink SQL's types and values as the debug runtime holds
// them: which Go type carries each SQL type, CAST between types by Flink's
// rules, comparison, arithmetic with Flink's result types, and a value as
// a STRING exactly as Flink writes it (CAST(… AS STRING) and the SQL
// client's printing).
//
// A value's Go type by SQL type:
//
//	BOOLEAN                          bool
//	TINYINT SMALLINT INT BIGINT      int64 (wrapped to the type's width)
//	FLOAT DOUBLE                     float64 (FLOAT rounded to float32)
//	DECIMAL(p, s)                    *big.Rat, rounded to s decimals
//	CHAR VARCHAR STRING              string
//	BINARY VARBINARY BYTES           []byte
//	DATE                             time.Time, midnight UTC
//	TIME(p)                          TimeOfDay
//	TIMESTAMP(p)                     time.Time, its wall clock in UTC
//	TIMESTAMP_LTZ(p)                 time.Time, the instant
//	INTERVAL YEAR TO MONTH           Months
//	INTERVAL DAY TO SECOND           time.Duration
//	ARRAY<T>                         Array
//	MAP<K, V>                        *Map
//	MULTISET<T>                      *Map, element → count (BIGINT)
//	ROW<…>                           Row
//	NULL                             nil
//
// Formatting is driven by the static type, never guessed from the value:
// a TIMESTAMP(3) at midnight prints its time and its three fraction
// digits, a DECIMAL(2, 1) 7.0 prints "7.0".
//
// It imports flinksql (to read a type as written) and nothing else of
// palink's.
package value
