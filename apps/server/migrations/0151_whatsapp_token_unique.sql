-- A connection's API token names it for POST /api/messages/send across all companies, so no two
-- connections may share one (before, a token chosen equal to another company's would have sent as
-- the older connection). A repeated token is cleared on the newer connections: it never worked for them.
UPDATE whatsapps w SET token = ''
 WHERE token <> '' AND EXISTS (SELECT 1 FROM whatsapps o WHERE o.token = w.token AND o.id < w.id);
CREATE UNIQUE INDEX whatsapps_token_key ON whatsapps (token) WHERE token <> '';
