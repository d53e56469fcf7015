-- Keywords (spec 3 §2-§3, §5): the company's blocked words. While the Options tab's 'enableBlockList' is
-- on, campaign and template content containing one of them (case- and accent-insensitive, whole words)
-- is refused. `word_key` is the word as compared (lower case, without accents), unique per company.
CREATE TABLE keywords (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  word text NOT NULL,
  word_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, id),
  UNIQUE (company_id, word_key)
);
