-- Source: apache/flink docs/content/docs/dev/table/sql/queries/model-inference.md
-- and the CREATE/ALTER/DROP MODEL sections of create.md, alter.md and drop.md.

CREATE MODEL my_model
INPUT (feature1 DOUBLE, feature2 DOUBLE)
OUTPUT (prediction STRING)
COMMENT 'a classifier'
WITH (
  'provider' = 'openai',
  'endpoint' = 'https://api.openai.com/v1/chat/completions',
  'model' = 'gpt-4o-mini',
  'api-key' = 'xxx'
);

-- Basic usage
SELECT * FROM ML_PREDICT(
  TABLE input_table,
  MODEL my_model,
  DESCRIPTOR(feature1, feature2)
);

-- With configuration options
SELECT * FROM ML_PREDICT(
  TABLE input_table,
  MODEL my_model,
  DESCRIPTOR(feature1, feature2),
  MAP['async', 'true', 'timeout', '100s']
);

-- Using named parameters
SELECT * FROM ML_PREDICT(
  INPUT => TABLE input_table,
  MODEL => MODEL my_model,
  ARGS => DESCRIPTOR(feature1, feature2),
  CONFIG => MAP['async', 'true']
);

ALTER MODEL my_model SET ('model' = 'gpt-4o');

ALTER MODEL IF EXISTS my_model RENAME TO my_classifier;

SHOW CREATE MODEL my_classifier;

DROP MODEL IF EXISTS my_classifier;
