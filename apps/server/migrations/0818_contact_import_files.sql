-- A large contacts import waits for its job as the uploaded file on disk
-- (DATA_DIR/contact-imports/<company>/<import>.csv, read as a stream by the job), no longer as its
-- decoded text in `content`: a file of a few hundred thousand rows is never held whole in memory nor
-- copied into a row. `file_encoding` is the encoding the upload's check found (the job reads the file
-- in it); NULL for an import queued before this version, whose text is still in `content` and is
-- imported from there.
ALTER TABLE contact_imports ADD COLUMN file_encoding text CHECK (file_encoding IN ('utf-8', 'windows-1252'));
