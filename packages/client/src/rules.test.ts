import { ROLE_PERMISSIONS as SERVER_ROLE_PERMISSIONS } from '@travelops/auth';
import { minorUnitDigits as serverMinorUnitDigits } from '@travelops/domain/shared';
import { expect, it } from 'vitest';
import { minorUnitDigits, ROLE_PERMISSIONS } from './index.js';

// The browser apps import only this package: these are the tables they read. Out of date
// with the server's: `pnpm --filter @travelops/client generate:rules`.

it("the role table the console reads is @travelops/auth's, role by role, permission by permission", () => {
  expect(ROLE_PERMISSIONS).toEqual(SERVER_ROLE_PERMISSIONS);
});

it("a currency's minor unit is the domain's for every code CurrencySchema accepts", () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const codes = [...letters].flatMap((a) => [...letters].flatMap((b) => [...letters].map((c) => a + b + c)));
  expect(codes.filter((code) => minorUnitDigits(code) !== serverMinorUnitDigits(code))).toEqual([]);
  expect([minorUnitDigits('JPY'), minorUnitDigits('EUR'), minorUnitDigits('IQD')]).toEqual([0, 2, 3]);
});
