-- WhatsApp templates with every parameter kind (issue 10 item 4).
--   parameter_format  Meta's template parameter_format: NAMED ({{first_name}}, sent with parameter_name)
--                     or POSITIONAL ({{1}}, {{2}}, ...); templates synced before this column are positional
--                     until the next sync.
ALTER TABLE whatsapp_templates
  ADD COLUMN parameter_format text NOT NULL DEFAULT 'POSITIONAL';
