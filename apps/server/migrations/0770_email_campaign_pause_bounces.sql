-- E-mail campaigns: pause, resume and cancel, and asynchronous hard bounces (docs/architecture.md
-- "E-mail campaigns").
-- A cancel turns the rows not yet sent into `skipped` (never sent; listed with the invalid ones).
ALTER TABLE email_campaign_recipients DROP CONSTRAINT email_campaign_recipients_state_check;
ALTER TABLE email_campaign_recipients ADD CONSTRAINT email_campaign_recipients_state_check
  CHECK (state IN ('invalid', 'pending', 'sending', 'delivered', 'not_delivered', 'unconfirmed', 'skipped'));

-- A hard bounce (RFC 3464 report, Action failed, Status 5.x.x) puts the address on the company's list.
ALTER TABLE opt_outs DROP CONSTRAINT opt_outs_source_check;
ALTER TABLE opt_outs ADD CONSTRAINT opt_outs_source_check CHECK (source IN ('reply', 'unsubscribe', 'admin', 'bounce'));
