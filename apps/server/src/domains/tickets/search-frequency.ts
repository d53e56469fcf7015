import { TtlCache } from "../../core/ttl-cache.js";
import type { Sql } from "../../db/sql.js";

interface WordStats {
  /** The most common words of the tickets' search words with the fraction of tickets holding each. */
  common: Map<string, number>;
  /** The smallest fraction a common word has: every other word is rarer. */
  floor: number;
  /** The tickets table's row count as last analysed. */
  tickets: number;
}

/** PostgreSQL's statistics change with ANALYZE (autovacuum); reading them once a few minutes is enough. */
const cache = new TtlCache<string, WordStats>(5 * 60_000, 1);

function loadStats(sql: Sql): Promise<WordStats> {
  return cache.get("tickets", async () => {
    const row = await sql.maybe<{ elems: string[] | null; freqs: number[] | null; tickets: number }>(
      `SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs,
              (SELECT GREATEST(reltuples, 0)::float8 FROM pg_class WHERE oid = 'tickets'::regclass) AS tickets
         FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = 'tickets' AND s.attname = 'search_words'`,
    );
    const elems = row?.elems ?? [];
    const freqs = row?.freqs ?? [];
    const common = new Map(elems.map((e, i) => [e, freqs[i] ?? 0]));
    // most_common_elem_freqs ends with the minimum and maximum frequency and the null fraction
    return { common, floor: freqs[elems.length] ?? 0, tickets: row?.tickets ?? 0 };
  });
}

/**
 * How many tickets a word search is expected to match, from PostgreSQL's own statistics of the
 * search words (most common elements and their frequencies): a prefix word counts every common word
 * it starts; all words are required, taken as independent (a pair that is rarely together, say a
 * frequent and a mid word, is collected through the index, not walked for); a word that is not common
 * is rarer than the rarest common one. The planner's own estimate is no use here: it does not weigh prefix words.
 */
export async function expectedMatches(sql: Sql, words: string[]): Promise<number> {
  const stats = await loadStats(sql);
  if (!words.length || !stats.tickets) return 0;
  let fraction = 1;
  for (const word of words) {
    let f = 0;
    for (const [elem, freq] of stats.common) if (elem.startsWith(word)) f += freq;
    fraction *= f > 0 ? Math.min(f, 1) : stats.floor / 2;
  }
  return fraction * stats.tickets;
}
