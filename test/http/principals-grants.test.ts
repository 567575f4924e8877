import { expect } from 'chai';
import { eachDialect } from '../support/harness.js';
import { recordPrincipalUse } from '../../src/domain/principal-directory.js';
eachDialect('principal directory', (h) => {
  it('records first and last use with one upsert, never moving last_seen_at back, inside a transaction too', async () => {
    const { db } = h().gateway;
    await recordPrincipalUse(db, h().organizationId, 'user:a', 1000);
    await recordPrincipalUse(db, h().organizationId, 'user:a', 3000);
    await recordPrincipalUse(db, h().organizationId, 'user:a', 2000);
    await db.transaction((t) => recordPrincipalUse(db, h().organizationId, 'user:b', 5000, t));
    const rows = await db.select('SELECT principal, first_seen_at, last_seen_at FROM principals ORDER BY principal');
    expect(rows).to.deep.equal([{ principal: 'user:a', first_seen_at: 1000, last_seen_at: 3000 }, { principal: 'user:b', first_seen_at: 5000, last_seen_at: 5000 }]);
  });
});
