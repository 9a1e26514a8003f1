import { firstValueFrom, take, toArray } from 'rxjs';
import { JobsService } from './jobs.service';

describe('JobsService', () => {
  const server = { id: 'srv000000000001', name: 'Local' };

  it('streams a snapshot first, then each change', async () => {
    const jobs = new JobsService();
    const existing = jobs.create('piper-a', server).job;
    const events = firstValueFrom(jobs.stream().pipe(take(3), toArray()));
    jobs.update(existing.id, { status: 'downloading', progress: 10 });
    jobs.update(existing.id, { status: 'complete', progress: 100 });
    const [snapshot, first, second] = await events;
    expect(snapshot).toEqual({
      type: 'snapshot',
      jobs: [expect.objectContaining({ id: existing.id, status: 'queued' })],
    });
    expect(first.job).toMatchObject({ status: 'downloading', progress: 10 });
    expect(second.job).toMatchObject({ status: 'complete', progress: 100 });
  });

  it('does not let a finished job change again', () => {
    const jobs = new JobsService();
    const { job } = jobs.create('m', server);
    jobs.update(job.id, { status: 'error', error: 'boom' });
    jobs.update(job.id, { status: 'downloading', progress: 50 });
    expect(jobs.get(job.id)).toMatchObject({ status: 'error', error: 'boom', progress: 0 });
  });

  it('cancels: aborts the signal and marks the job cancelled', () => {
    const jobs = new JobsService();
    const { job, signal } = jobs.create('m', server);
    expect(jobs.findActive('m', server.id)?.id).toBe(job.id);
    jobs.cancel(job.id);
    expect(signal.aborted).toBe(true);
    expect(jobs.get(job.id).status).toBe('cancelled');
    expect(jobs.findActive('m', server.id)).toBeUndefined();
  });

  it('watch completes once every watched job is finished', async () => {
    const jobs = new JobsService();
    const a = jobs.create('m', server).job;
    const b = jobs.create('m', { id: 'srv000000000002', name: 'B' }).job;
    const seen = firstValueFrom(jobs.watch([a.id, b.id]).pipe(toArray()));
    jobs.update(a.id, { status: 'complete', progress: 100 });
    jobs.update(b.id, { status: 'error', error: 'x' });
    const statuses = (await seen).map((job) => `${job.serverName}:${job.status}`);
    expect(statuses).toEqual(['Local:queued', 'B:queued', 'Local:complete', 'B:error']);
  });

  it('rejects unknown ids with a 404', () => {
    const jobs = new JobsService();
    expect(() => jobs.get('nope')).toThrow('Job not found.');
    expect(() => jobs.cancel('nope')).toThrow('Job not found.');
  });
});
