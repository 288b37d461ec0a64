import type { Scenario } from '../../scenario-types';

const MIGRATE_PY = `"""Runner de migraciones: python3 scripts/migrate.py up|down|status (base: db/dev.sqlite3)."""
import pathlib
import sqlite3
import sys

DB = pathlib.Path("db/dev.sqlite3")
MIGRATIONS = pathlib.Path("migrations")


def connect():
    DB.parent.mkdir(exist_ok=True)
    c = sqlite3.connect(DB, isolation_level=None)
    c.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)")
    return c


def applied(c):
    return {r[0] for r in c.execute("SELECT version FROM schema_migrations")}


def run(c, path, version, record):
    sql = path.read_text(encoding="utf-8")
    c.execute("BEGIN")
    try:
        for statement in [s for s in sql.split(";") if s.strip()]:
            c.execute(statement)
        if record:
            c.execute("INSERT INTO schema_migrations VALUES (?)", (version,))
        else:
            c.execute("DELETE FROM schema_migrations WHERE version = ?", (version,))
        c.execute("COMMIT")
    except sqlite3.Error as e:
        c.execute("ROLLBACK")
        print(f"!! {path.name}: {type(e).__name__}: {e}", file=sys.stderr)
        print("!! rollback: la base queda como estaba", file=sys.stderr)
        sys.exit(1)


def main(cmd):
    c = connect()
    done = applied(c)
    ups = sorted(MIGRATIONS.glob("*.up.sql"))
    if cmd == "status":
        for p in ups:
            v = p.name.split("_")[0]
            print(f"{'aplicada ' if v in done else 'pendiente'}  {p.name[:-7]}")
    elif cmd == "up":
        pending = [p for p in ups if p.name.split("_")[0] not in done]
        if not pending:
            print("nada que migrar")
        for p in pending:
            v = p.name.split("_")[0]
            print(f"== {p.name[:-7]}: migrando")
            run(c, p, v, True)
            print(f"== {p.name[:-7]}: migrada")
    elif cmd == "down":
        last = max(done)
        p = next(MIGRATIONS.glob(f"{last}_*.down.sql"))
        print(f"== {p.name[:-9]}: revirtiendo")
        run(c, p, last, False)
        print(f"== {p.name[:-9]}: revertida")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "status")
`;

const nifs = ['B12345678', '12345678Z', 'X1234567L', '87654321X', 'B12345678', 'X1234567L', '44556677P', 'A58818501', '11223344B', '99887766K', 'B87654321', '55667788F'];
const LEGACY = `CREATE TABLE legacy_customers (
  customer_id INTEGER NOT NULL,
  nif TEXT NOT NULL
);
${nifs.map((n, i) => `INSERT INTO legacy_customers VALUES (${[3, 4, 6, 7, 9, 11, 12, 13, 14, 15, 16, 17][i]}, '${n}')`).join(';\n')};
`;
const CUSTOMERS = `CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE
);
${Array.from({ length: 17 }, (_, i) => `INSERT INTO customers (id, name, email) VALUES (${i + 1}, 'Cliente ${i + 1}', 'cliente${i + 1}@example.es')`).join(';\n')};
`;

const UP_0004 = `ALTER TABLE customers ADD COLUMN tax_id TEXT;
UPDATE customers SET tax_id = (SELECT nif FROM legacy_customers l WHERE l.customer_id = customers.id);
CREATE UNIQUE INDEX ix_customers_tax_id ON customers (tax_id);
`;
const DOWN_0004 = `DROP INDEX ix_customers_tax_id;
ALTER TABLE customers DROP COLUMN tax_id;
`;

const DUPES = "python3 -c \"import sqlite3; c = sqlite3.connect('db/dev.sqlite3'); [print(*r, sep=' | ') for r in c.execute('SELECT nif, group_concat(customer_id) FROM legacy_customers GROUP BY nif HAVING count(*) > 1')]\"";

/** A database migration session in Spanish: the user's answer keeps the duplicates, and the UNIQUE index waits on accounting. */
export const spanishMigrationSqlite: Scenario = {
  name: 'spanish-migration-sqlite',
  covers: 'a session in Spanish: a migration fails on duplicate NIFs, the user says delete nothing, a plain index now, UNIQUE later once accounting (Marta) has reviewed them',
  repo: {
    'scripts/migrate.py': MIGRATE_PY,
    'migrations/0001_customers.up.sql': CUSTOMERS,
    'migrations/0001_customers.down.sql': 'DROP TABLE customers;\n',
    'migrations/0002_orders.up.sql': 'CREATE TABLE orders (\n  id INTEGER PRIMARY KEY,\n  customer_id INTEGER NOT NULL REFERENCES customers (id),\n  total_cents INTEGER NOT NULL\n);\n',
    'migrations/0002_orders.down.sql': 'DROP TABLE orders;\n',
    'migrations/0003_legacy_import.up.sql': LEGACY,
    'migrations/0003_legacy_import.down.sql': 'DROP TABLE legacy_customers;\n',
    '.gitignore': 'db/\n',
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'Hola. Necesito añadir la columna tax_id (el NIF) a la tabla customers y rellenarla con los datos de legacy_customers. Hazlo con una migración nueva, con su down.',
          actions: [
            { tool: 'Bash', command: 'python3 scripts/migrate.py status', description: 'Estado de las migraciones' },
            { tool: 'Bash', command: 'python3 scripts/migrate.py up', description: 'Poner la base de desarrollo al día' },
            { tool: 'Read', path: 'migrations/0003_legacy_import.up.sql' },
            { tool: 'Write', path: 'migrations/0004_customers_tax_id.up.sql', content: UP_0004 },
            { tool: 'Write', path: 'migrations/0004_customers_tax_id.down.sql', content: DOWN_0004 },
            { tool: 'Bash', command: 'python3 scripts/migrate.py up', description: 'Aplicar la 0004' },
            { tool: 'Bash', command: DUPES, description: 'NIF repetidos en legacy_customers' },
            {
              text: 'La migración 0004 falla al crear el índice único: `sqlite3.IntegrityError: UNIQUE constraint failed: customers.tax_id` (hizo rollback, la base está como antes). En legacy_customers hay 2 NIF repetidos: B12345678 en los clientes 3 y 9, y X1234567L en los clientes 6 y 11.\n\n¿Qué prefieres: borrar los duplicados más antiguos de legacy_customers, o crear de momento el índice sin UNIQUE?',
            },
          ],
        },
        {
          prompt: 'No borres nada. Quita el UNIQUE por ahora y crea un índice normal; los duplicados los revisa Marta, de contabilidad. Y pásame la lista en un CSV para mandársela.',
          actions: [
            { tool: 'Read', path: 'migrations/0004_customers_tax_id.up.sql' },
            { tool: 'Edit', path: 'migrations/0004_customers_tax_id.up.sql', old: 'CREATE UNIQUE INDEX ix_customers_tax_id', new: '-- Sin UNIQUE hasta que contabilidad revise los NIF repetidos (ver reports/nif-duplicados.csv).\nCREATE INDEX ix_customers_tax_id' },
            { tool: 'Bash', command: 'python3 scripts/migrate.py up && python3 scripts/migrate.py down && python3 scripts/migrate.py up', description: 'Probar up, down y up otra vez' },
            {
              tool: 'Bash',
              command: "mkdir -p reports && python3 -c \"import csv, sqlite3, sys; c = sqlite3.connect('db/dev.sqlite3'); w = csv.writer(sys.stdout); w.writerow(['nif', 'customer_id', 'email']); w.writerows(c.execute('SELECT l.nif, l.customer_id, c.email FROM legacy_customers l JOIN customers c ON c.id = l.customer_id WHERE l.nif IN (SELECT nif FROM legacy_customers GROUP BY nif HAVING count(*) > 1) ORDER BY l.nif, l.customer_id'))\" > reports/nif-duplicados.csv && cat reports/nif-duplicados.csv",
              description: 'Exportar los duplicados a CSV',
            },
            {
              text: 'Hecho:\n- migrations/0004_customers_tax_id.up.sql añade tax_id, lo rellena desde legacy_customers y crea ix_customers_tax_id sin UNIQUE; up → down → up funciona.\n- No he borrado nada.\n- La lista para Marta está en reports/nif-duplicados.csv (4 filas: B12345678 → clientes 3 y 9, X1234567L → clientes 6 y 11).\n\nQueda pendiente la respuesta de Marta (contabilidad) sobre los duplicados. Cuando estén resueltos, el siguiente paso es una migración 0005 que cambie ix_customers_tax_id por un índice UNIQUE.',
            },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear'], prompt: '¿Por dónde íbamos?' },
  facts: [
    { id: 'objetivo: la columna tax_id (NIF) en customers', in: ['objective'], pattern: 'tax_id|NIF' },
    { id: 'esperando a Marta (contabilidad) y los duplicados', in: ['waiting_on'], pattern: 'Marta|contabilidad|accounting|duplicad|duplicate' },
    { id: 'siguiente: la 0005 con el índice UNIQUE', in: ['next_valid_action', 'waiting_on'], pattern: '0005|UNIQUE|únic' },
    { id: 'la decisión: no borrar nada, índice sin UNIQUE', in: ['facts', 'rejected', 'done'], pattern: 'borr|delet|sin UNIQUE|without (a )?UNIQUE|non.?unique|no UNIQUE|índice normal|plain index|regular index' },
    { id: 'la migración 0004 en los ficheros', in: ['files'], pattern: '0004_customers_tax_id' },
  ],
  antiFacts: [
    { id: 'el UNIQUE constraint failed (resuelto quitando el UNIQUE) como error abierto', in: ['errors'], pattern: '^(?!.*(resolved|fixed|→|resuelt|corregid|solucionad)).*UNIQUE constraint failed' },
    { id: 'borrar los duplicados como siguiente paso', in: ['next_valid_action'], pattern: 'borrar|eliminar|delete|remove|dedup' },
    { id: 'esperando aún la pregunta ya contestada', in: ['waiting_on'], pattern: 'prefieres|borrar los duplicados|which do you prefer' },
  ],
};
