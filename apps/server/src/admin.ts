import { AdminError, runAdmin } from './admin-commands.ts';
import { loadConfig } from './config.ts';

// `npm run admin -- <command> …`: see ADMIN_USAGE in admin-commands.ts.
try {
  console.log(await runAdmin(process.argv.slice(2), loadConfig()));
} catch (err) {
  if (
    err instanceof AdminError ||
    (err instanceof Error && 'code' in err && err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
  ) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
