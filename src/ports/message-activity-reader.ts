/** Read side of the dashboard chart: how many messages were said on each UTC day. */
export interface MessageActivityReader {
  /** Counts by UTC day (YYYY-MM-DD) of messages whose timestamp is at or after `since`; days without messages are absent. */
  messagesPerDay(since: string, within?: readonly string[]): Promise<Array<{ date: string; messages: number }>>;
}
