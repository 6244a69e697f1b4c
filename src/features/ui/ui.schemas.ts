import { Type } from 'typebox';

export const MAX_ACTIVITY_DAYS = 366;

export const ActivityQuery = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: MAX_ACTIVITY_DAYS, default: 30, description: 'UTC days up to and including today' }),
}, { additionalProperties: false });

export const ActivityResponse = Type.Object({
  from: Type.String({ description: 'First day (YYYY-MM-DD, UTC)' }),
  to: Type.String({ description: 'Last day: today (UTC)' }),
  days: Type.Array(Type.Object({
    date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
    messages: Type.Integer({ description: 'Messages whose timestamp falls on this day' }),
  })),
});
