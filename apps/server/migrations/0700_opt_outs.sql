-- Opt-out list (issue 16): per company and channel, the addresses that must never be written to again by
-- a campaign. Fed by SMS replies such as SAIR/PARAR/STOP, by the e-mail one-click unsubscribe (RFC 8058)
-- and by admins. `address` is normalised: the phone's digits (E.164 without '+') for sms, the lower-case
-- e-mail address for email. Campaign analyses and dispatch skip these addresses.
CREATE TABLE opt_outs (
  company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('sms', 'email')),
  address text NOT NULL,
  source text NOT NULL CHECK (source IN ('reply', 'unsubscribe', 'admin')),
  reference text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, channel, address)
);
CREATE INDEX opt_outs_recent ON opt_outs (company_id, channel, created_at DESC);
