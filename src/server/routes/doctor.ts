import { Elysia } from 'elysia';
import { runDoctor } from '../../doctor/doctor.ts';
import type { ServerContext } from '../context.ts';

/** The doctor's table for the Settings page: the rows `svc doctor --json` prints. */
export const doctorRoutes = (ctx: ServerContext) => new Elysia({ name: 'doctor' }).get('/api/doctor', () => runDoctor(ctx.configWithSecrets()));
