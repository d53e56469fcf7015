-- The tables every inbound message, status and campaign send updates: vacuumed and analysed after a
-- small share of their rows changed instead of PostgreSQL's default 20 % (on a table of a million
-- tickets that is 200,000 dead rows before autovacuum runs, and the inbound path walked them: runs of
-- the webhook bench slowed one after another), and pages left with room for the new version of an
-- updated row, so an update that changes no indexed column stays on its page (a HOT update: no index
-- entry written). A ticket's updates change its indexed `updated_at`, so they are not HOT; the room
-- still keeps a row's versions on one page. `fillfactor` applies to pages written from now on.
ALTER TABLE tickets SET (fillfactor = 85, autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000,
  autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 1);
ALTER TABLE ticket_traking SET (fillfactor = 85, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_cost_delay = 1);
ALTER TABLE official_conversations SET (fillfactor = 80, autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 1);
ALTER TABLE webhook_events SET (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.05,
  autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 1);
-- insert-mostly: vacuumed (visibility map, so index-only scans stay index-only) and analysed as they grow
ALTER TABLE messages SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 1);
ALTER TABLE contacts SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE campaign_recipients SET (fillfactor = 85, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_cost_delay = 1);
ALTER TABLE sms_campaign_recipients SET (fillfactor = 85, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_cost_delay = 1);
ALTER TABLE email_campaign_recipients SET (fillfactor = 85, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_cost_delay = 1);
