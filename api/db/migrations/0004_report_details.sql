-- A report's evidence and fixes (often hundreds of kilobytes) apart from its summary, so reading a
-- locked report, the common case, never loads them. Rows written before this keep their details
-- inside `result`, with `details` NULL.
ALTER TABLE check_reports ADD COLUMN details TEXT;
