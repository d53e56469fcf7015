-- Inbound message kinds of the official Cloud API that have no place in the older columns (issue 10).
--   reactions          the contact's reactions to this message: [{"from": "<number>", "emoji": "👍"}],
--                      one per sender (a new reaction replaces the sender's earlier one, an empty one removes it)
--   referral           the click-to-WhatsApp ad the conversation came from (Meta's `referral` object)
--   media_unavailable  Meta could not provide the file (kept with its caption instead of being dropped)
--   unsupported        Meta reported a type the Cloud API cannot deliver (`unsupported`, error-only messages)
ALTER TABLE messages
  ADD COLUMN reactions jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN referral jsonb,
  ADD COLUMN media_unavailable boolean NOT NULL DEFAULT false,
  ADD COLUMN unsupported boolean NOT NULL DEFAULT false;
